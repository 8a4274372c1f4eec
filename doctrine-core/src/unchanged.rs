//! The check a module written ahead of time (`cargo doctrine expand --out`) makes of the
//! files it was generated from: each file's bytes, included where the module compiles,
//! hashed by a `const fn` and compared with the hash the generator saw. A file edited since
//! is a compile error, as with the macro, without the generator in the build.

/// The 64-bit FNV-1a hash of `bytes`, a `\r\n` read as `\n`. FNV-1a for what a `const
/// fn` can do cheaply: one multiply per byte (rustc evaluates some 70,000 bytes a second
/// this way: BENCHMARKS.md). Line endings as the generator reads them (it turns `\r\n` into
/// `\n`), so a module written on one system still builds where git checks the files out
/// with CRLF. It tells an edited file from the one the module was generated from; it is no
/// defence against a file crafted to collide, which a reviewer of the module would see.
pub const fn content_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        let crlf = bytes[i] == b'\r' && i + 1 < bytes.len() && bytes[i + 1] == b'\n';
        if !crlf {
            hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::content_hash;

    #[test]
    fn the_hash_is_fnv_1a() {
        // The published FNV-1a 64-bit values of the empty input and of "a".
        assert_eq!(content_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(content_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn one_byte_changed_changes_the_hash() {
        assert_ne!(
            content_hash(b"You review code."),
            content_hash(b"You review code!")
        );
        assert_ne!(content_hash(b"ab"), content_hash(b"ba"));
    }

    #[test]
    fn a_crlf_checkout_hashes_as_the_lf_file_and_a_lone_cr_does_not() {
        let lf = content_hash(b"# Base\n\nBe brief.\n");
        assert_eq!(content_hash(b"# Base\r\n\r\nBe brief.\r\n"), lf);
        assert_ne!(content_hash(b"# Base\r\rBe brief.\n"), lf);
        assert_ne!(content_hash(b"# Base\n\nBe brief.\r"), lf);
    }

    #[test]
    fn it_runs_when_the_crate_compiles() {
        const H: u64 = content_hash(b"base");
        assert_eq!(H, content_hash("base".as_bytes()));
    }
}
