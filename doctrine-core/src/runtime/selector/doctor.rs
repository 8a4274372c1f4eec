//! What `doctor` shows: each selector, its value, where its layer comes from, and why.

use std::fmt;
use std::path::PathBuf;

use super::Selector;
use crate::runtime::notice::Notice;

/// Where a selector layer's text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SelectorOrigin {
    /// No layer: the selector is off (or a user copy turned it off with `empty = "off"`).
    Off,
    /// The text compiled in.
    Shipped,
    /// The copy in the user's directory.
    UserCopy,
    /// The file the selector names.
    Path,
    /// The selector names a file that cannot be used: no layer.
    Degraded,
}

impl SelectorOrigin {
    /// `off`, `shipped`, `user copy`, `path` or `degraded`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SelectorOrigin::Off => "off",
            SelectorOrigin::Shipped => "shipped",
            SelectorOrigin::UserCopy => "user copy",
            SelectorOrigin::Path => "path",
            SelectorOrigin::Degraded => "degraded",
        }
    }
}

impl fmt::Display for SelectorOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One selector, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SelectorReport {
    /// The selector's name in the manifest.
    pub name: &'static str,
    /// The layer it selects the source of.
    pub layer: &'static str,
    /// Its own value, exactly as passed (`None`: unset).
    pub raw: Option<String>,
    /// The selector whose value it took, its own not being given.
    pub followed: Option<&'static str>,
    /// The value it went by, parsed.
    pub value: Selector,
    /// Where the layer's text comes from.
    pub source: SelectorOrigin,
    /// The file read (the user copy or the path), or refused for a degraded selector.
    pub file: Option<PathBuf>,
    /// User copies byte-identical to an earlier shipped version, bypassed.
    pub bypassed: Vec<PathBuf>,
    /// Everything refused, cut or bypassed while resolving it, and why.
    pub notices: Vec<Notice>,
}

impl SelectorReport {
    /// Selector `name` of layer `layer`, unset, off and reading nothing: the loader sets
    /// what it resolved.
    #[doc(hidden)]
    pub fn new(name: &'static str, layer: &'static str) -> Self {
        SelectorReport {
            name,
            layer,
            raw: None,
            followed: None,
            value: Selector::Off,
            source: SelectorOrigin::Off,
            file: None,
            bypassed: Vec::new(),
            notices: Vec::new(),
        }
    }
}

/// Every selector of a manifest, resolved: as data, and as text (`Display`, one selector
/// per line with its reasons indented below it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Doctor {
    /// In manifest order.
    pub selectors: Vec<SelectorReport>,
}

impl fmt::Display for SelectorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "selector `{}` (layer `{}`): ", self.name, self.layer)?;
        match &self.raw {
            Some(raw) => write!(f, "{raw:?}")?,
            None => f.write_str("unset")?,
        }
        if let Some(from) = self.followed {
            write!(f, ", follows `{from}`")?;
        }
        let value = match &self.value {
            Selector::Off => "off".to_string(),
            Selector::On => "on".to_string(),
            Selector::Path(p) => format!("path {}", p.display()),
        };
        write!(f, " ({value}) -> {}", self.source)?;
        if let Some(file) = &self.file {
            write!(f, " {}", file.display())?;
        }
        for legacy in &self.bypassed {
            write!(f, "\n  bypassed legacy copy: {}", legacy.display())?;
        }
        for notice in &self.notices {
            write!(f, "\n  {notice}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Doctor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.selectors.is_empty() {
            return f.write_str("no selectors");
        }
        for (i, s) in self.selectors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}
