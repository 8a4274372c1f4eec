# Lines of a Rust tree: every line; without unit tests (a file's `#[cfg(test)] mod` to its
# end, `tests.rs` files); and code only (no comment or blank line). Directories named after
# the tree are left out. BENCHMARKS.md, "Runtime size":
#   python3 benches/runtime_lines.py doctrine-core/src/runtime [tripwire]
import re,sys,pathlib
tot=nt=code=0
per=[]
for f in sorted(pathlib.Path(sys.argv[1]).rglob('*.rs')):
    if any(x in f.parts for x in sys.argv[2:]): continue
    if f.name=='tests.rs': 
        tot+=len(f.read_text().split('\n'))-1; continue
    lines=f.read_text().split('\n')[:-1]
    tot+=len(lines)
    out=[];i=0
    while i<len(lines):
        if lines[i].strip()=='#[cfg(test)]' and i+1<len(lines) and re.match(r'\s*mod \w+ \{',lines[i+1]):
            break  # test module runs to the end of the file by convention
        out.append(lines[i]); i+=1
    nt+=len(out)
    c=[l for l in out if l.strip() and not l.strip().startswith('//')]
    code+=len(c); per.append((len(out),len(c),str(f)))
print(f"total {tot}  without tests {nt}  code only {code}")
for p in sorted(per,reverse=True)[:15]:
    print(*p)
