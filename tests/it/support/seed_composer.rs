//! A runtime composer written the way the seed composers are (read each file per call,
//! strip frontmatter, trim, join with `---`), for the crew example. The parity test checks
//! the generated code reproduces it byte for byte; the compose bench times it.

use std::path::PathBuf;

/// Everything after a leading `---` frontmatter block (fence lines of their own), as the
/// manifest's `frontmatter = "strip"` does.
fn strip_frontmatter(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text;
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches('\n') == "---" {
            return &rest[offset + line.len()..];
        }
        offset += line.len();
    }
    text
}

/// One call's arguments, as the seed's `compose_prompt` takes them (plus the tool list
/// its harness loaded).
#[derive(Clone, Copy)]
pub struct Seat<'a> {
    pub role: &'a str,
    pub tools: &'a [&'a str],
    pub team: &'a str,
    pub identity: &'a str,
    pub fable: bool,
    pub intensity: &'a str,
    pub ambient: Option<&'a str>,
}

/// A runtime composer as the seed composers write it: every call reads the files.
pub struct Runtime {
    pub dir: PathBuf,
}

impl Runtime {
    fn read(&self, rel: &str, frontmatter: bool) -> String {
        let raw = std::fs::read_to_string(self.dir.join(rel)).expect("crew file");
        let raw = raw
            .strip_prefix('\u{feff}')
            .unwrap_or(&raw)
            .replace("\r\n", "\n");
        let body = if frontmatter {
            strip_frontmatter(&raw)
        } else {
            &raw
        };
        body.trim().to_string()
    }

    pub fn compose(&self, seat: &Seat<'_>) -> String {
        let Seat {
            role,
            tools,
            team,
            identity,
            fable,
            intensity,
            ambient,
        } = *seat;
        let developer = role == "developer";
        let mut layers: Vec<String> = Vec::new();
        // The harness's tool list, joined as the seed joins it; none, no directive.
        if !tools.is_empty() {
            let tools = tools.join(", ");
            layers.push(match role {
                "developer" => format!("Your tools are loaded: {tools}. Use them before asking."),
                "pm" => {
                    format!("Your tools are loaded: {tools}. You cannot touch the repository.")
                }
                _ => format!("Your tools are loaded: {tools}."),
            });
        }
        layers.push(self.read(
            if developer {
                "lifecycle/developer.md"
            } else {
                "lifecycle/default.md"
            },
            false,
        ));
        layers.push(self.read("base.md", false));
        if fable {
            layers.push(self.read("doctrine/fable.md", true));
            let mut ponytail = self.read(
                if developer {
                    "doctrine/ponytail.md"
                } else {
                    "doctrine/ponytail-ethos.md"
                },
                true,
            );
            if developer {
                ponytail.push_str(&format!("\n\n**Operative intensity: {intensity}.**"));
            }
            layers.push(ponytail);
        }
        let role_file = match role {
            "reviewer" | "qa" => "verifier",
            other => other,
        };
        layers.push(self.read(&format!("roles/{role_file}.md"), false));
        layers.push(self.read(&format!("teams/{team}.md"), false));
        layers.push(self.read(&format!("identities/{identity}.md"), false));
        layers.push(ambient.unwrap_or("").to_string());
        layers.retain(|l| !l.is_empty());
        layers.join("\n\n---\n\n")
    }
}
