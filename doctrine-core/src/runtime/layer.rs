//! Static descriptions of layers and their sources, emitted by the macro as `static`s.

use std::fmt;

use super::emit::rebuilt;

rebuilt! {
/// Where a layer sits relative to the provider's prompt cache: a prompt is its stable
/// prefix and its volatile suffix ([`Prompt::stable`], [`Prompt::volatile`]). A manifest
/// that declares ordered `tiers` has every tier but the last stable (each a cached block,
/// [`Prompt::blocks`]), the last volatile; [`LayerInfo::tier_name`] names the tier.
///
/// [`Prompt::blocks`]: crate::Prompt::blocks
/// [`Prompt::stable`]: crate::Prompt::stable
/// [`Prompt::volatile`]: crate::Prompt::volatile
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stability {
    /// Part of the cacheable prefix: byte-identical across turns for equal inputs.
    Stable,
    /// Per-turn text that follows the prefix.
    Volatile,
}
}

impl Stability {
    /// `"stable"` or `"volatile"`, as in the manifest.
    pub const fn as_str(self) -> &'static str {
        match self {
            Stability::Stable => "stable",
            Stability::Volatile => "volatile",
        }
    }
}

impl fmt::Display for Stability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

rebuilt! {
@new
/// What the manifest says about one layer, independent of any composition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct LayerInfo {
    /// The layer's `name` in the manifest.
    pub name: &'static str,
    /// Its cache tier: stable (every declared tier but the last) or volatile (the last).
    pub stability: Stability,
    /// The name of its tier in the manifest's `tiers` (`stable` or `volatile` without them).
    pub tier_name: &'static str,
    /// Its tier's place in the manifest's `tiers`, from 0 (without them: stable 0,
    /// volatile 1).
    pub tier_index: usize,
    /// Locked layers have no overlay field and no runtime path can change their bytes.
    pub locked: bool,
    /// The layer can carry text from a user's file: an overlay, a selector's file or user
    /// copy, or the skill index (user skills' lines). Never true of a locked layer.
    pub user: bool,
    /// Delimited per formulation when set; an untitled layer is never delimited.
    pub title: Option<&'static super::formulation::Title>,
    /// The manifest's `note` for the layer: a line for whoever reads its table
    /// ([`Explain`](crate::introspect::Explain) shows it under the layer's row), never in
    /// the prompt.
    pub note: Option<&'static str>,
    /// The manifest's `join_before`: written before the layer's text, in place of the
    /// separator, when a layer before it in the same message printed.
    pub join: Option<&'static str>,
    /// The `[[message]]` the layer belongs to (`None`: the manifest declares none).
    pub message: Option<&'static super::message_info::MessageInfo>,
    /// The manifest's `wrap`: texts written around the layer's text when it prints, inside
    /// its title's delimiters; a container when they pair (a tag, a code fence).
    pub wrap: Option<&'static super::container::Wrap>,
    /// The roles (indices) in which the layer's run-time text outside a container is
    /// guarded against every section boundary: those in which its message holds a locked
    /// layer, or all when the manifest guards every message (`None`: every role). See
    /// [`LayerInfo::guarded_in`].
    pub strict: Option<&'static [u32]>,
    /// The manifest's `header`: written before the layer's text when it prints (after its
    /// title's opening delimiter, before its wrapper's opening text), its values guarded
    /// against every section boundary.
    pub header: Option<&'static super::header::Header>,
}
}

impl LayerInfo {
    /// A stable layer of this name, not locked, carrying no user-file text, untitled.
    /// Used by generated code, with the methods below.
    #[doc(hidden)]
    pub const fn named(name: &'static str) -> LayerInfo {
        LayerInfo {
            name,
            stability: Stability::Stable,
            tier_name: "stable",
            tier_index: 0,
            locked: false,
            user: false,
            title: None,
            note: None,
            join: None,
            message: None,
            wrap: None,
            strict: None,
            header: None,
        }
    }

    /// Whether the layer's run-time text outside a container is guarded against every
    /// section boundary when composed for role `role` (index): its message holds a locked
    /// layer in that role, or the manifest guards every message. Elsewhere only what would
    /// close a container around it, and a line that reads as a join, is escaped.
    #[inline(always)]
    pub fn guarded_in(&self, role: usize) -> bool {
        self.strict
            .is_none_or(|roles| roles.contains(&(role as u32)))
    }

    /// Volatile, in the default tiers (`volatile`, the second).
    #[doc(hidden)]
    pub const fn volatile(mut self) -> Self {
        self.stability = Stability::Volatile;
        self.tier_name = "volatile";
        self.tier_index = 1;
        self
    }

    /// In the manifest's declared tier `index`, named `name` (after [`Self::volatile`] for
    /// the last tier).
    #[doc(hidden)]
    pub const fn in_tier(mut self, index: usize, name: &'static str) -> Self {
        self.tier_name = name;
        self.tier_index = index;
        self
    }

    #[doc(hidden)]
    pub const fn locked(mut self) -> Self {
        self.locked = true;
        self
    }

    #[doc(hidden)]
    pub const fn user(mut self) -> Self {
        self.user = true;
        self
    }

    /// Joined to the text before it in its message by `join` rather than the separator.
    #[doc(hidden)]
    pub const fn joined(mut self, join: &'static str) -> Self {
        self.join = Some(join);
        self
    }

    /// In this message.
    #[doc(hidden)]
    pub const fn in_message(mut self, message: &'static super::message_info::MessageInfo) -> Self {
        self.message = Some(message);
        self
    }

    /// Guarded against every section boundary only in these roles (none: in no role).
    #[doc(hidden)]
    pub const fn strict_in(mut self, roles: &'static [u32]) -> Self {
        self.strict = Some(roles);
        self
    }

    /// Written inside this wrapper.
    #[doc(hidden)]
    pub const fn wrapped(mut self, wrap: &'static super::container::Wrap) -> Self {
        self.wrap = Some(wrap);
        self
    }

    /// Headed by this header.
    #[doc(hidden)]
    pub const fn headed(mut self, header: &'static super::header::Header) -> Self {
        self.header = Some(header);
        self
    }

    #[doc(hidden)]
    pub const fn titled(mut self, title: &'static super::formulation::Title) -> Self {
        self.title = Some(title);
        self
    }
}

rebuilt! {
@new
/// Provenance read from a file's frontmatter (`source`, `version`, `licence`/`license`).
#[derive(Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Provenance {
    /// Where the text comes from (`source`).
    pub source: Option<&'static str>,
    /// Its version (`version`).
    pub version: Option<&'static str>,
    /// Its licence (`licence` or `license`).
    pub licence: Option<&'static str>,
}
}

impl Provenance {
    /// No frontmatter provenance.
    pub const NONE: Provenance = Provenance {
        source: None,
        version: None,
        licence: None,
    };

    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        self.source.is_none() && self.version.is_none() && self.licence.is_none()
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [self.source, self.version, self.licence];
        let mut first = true;
        for part in parts.into_iter().flatten() {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(part)?;
            first = false;
        }
        Ok(())
    }
}

rebuilt! {
@new
/// A file a layer's text was embedded from.
#[derive(Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EmbeddedFile {
    /// Path relative to the crate directory, with `/` separators on every platform.
    pub path: &'static str,
    /// What its frontmatter says of where it comes from.
    pub provenance: Provenance,
}
}

impl EmbeddedFile {
    /// A file without frontmatter provenance. Used by generated code, with the methods
    /// below for the provenance a file has.
    #[doc(hidden)]
    pub const fn at(path: &'static str) -> EmbeddedFile {
        EmbeddedFile {
            path,
            provenance: Provenance::NONE,
        }
    }

    #[doc(hidden)]
    pub const fn with_source(mut self, source: &'static str) -> Self {
        self.provenance.source = Some(source);
        self
    }

    #[doc(hidden)]
    pub const fn with_version(mut self, version: &'static str) -> Self {
        self.provenance.version = Some(version);
        self
    }

    #[doc(hidden)]
    pub const fn with_licence(mut self, licence: &'static str) -> Self {
        self.provenance.licence = Some(licence);
        self
    }
}

rebuilt! {
/// Where a composed section's text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// A file embedded at compile time.
    File(source: &'static EmbeddedFile),
    /// Inline text from the manifest.
    Inline,
    /// A runtime slot the caller filled.
    Slot,
    /// The user's overlay (the named file of the overlay directory) replaced the shipped text.
    OverlayReplaced(file: &'static str),
    /// The user's overlay (the named file), a template with the layer's facts
    /// (`overlay_interpolate`), replaced the shipped text: the file's text is the user's,
    /// the values in it the caller's.
    OverlayTemplate(file: &'static str),
    /// The user's overlay (the named file) was appended to the shipped text.
    OverlayAppended(source: Option<&'static EmbeddedFile>, file: &'static str),
    /// Instructions given at run time; each one's source and scope precede it in the text.
    Instructions,
    /// The file named by path by the selector of this name replaced the shipped text.
    Selected(selector: &'static str),
    /// The layer was skipped before its text was chosen (e.g. not in this role).
    Unresolved,
}
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File(src) => f.write_str(src.path),
            Origin::Inline => f.write_str("inline (manifest)"),
            Origin::Slot => f.write_str("runtime slot"),
            Origin::OverlayReplaced(file) => write!(f, "overlay {file} (replaces shipped)"),
            Origin::OverlayTemplate(file) => {
                write!(
                    f,
                    "overlay {file} (a template with facts; replaces shipped)"
                )
            }
            Origin::OverlayAppended(Some(src), file) => write!(f, "{} + overlay {file}", src.path),
            Origin::OverlayAppended(None, file) => write!(f, "inline + overlay {file}"),
            Origin::Instructions => f.write_str("instructions (runtime)"),
            Origin::Selected(name) => write!(f, "path from selector `{name}`"),
            Origin::Unresolved => f.write_str("-"),
        }
    }
}

rebuilt! {
/// Why a layer contributed nothing to a composed prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Skip {
    /// The flag that gates the layer is off.
    FlagOff(flag: &'static str),
    /// The layer is for when the flag is off (`when = "!flag"`), and it is on.
    FlagOn(flag: &'static str),
    /// The layer is scoped to other roles.
    NotInRole,
    /// The layer's text (or the slot's value) is empty.
    Empty,
    /// An optional slot or choice was not supplied.
    NotSupplied,
    /// The fact that gates the layer was not given.
    FactAbsent(fact: &'static str),
    /// The fact that gates the layer has another value.
    FactValue(fact: &'static str),
    /// A condition of the layer's `when` does not hold (as written, e.g. `!scope`).
    When(cond: &'static str),
    /// Every condition of the layer's `unless` holds (as written, comma-separated).
    Unless(conds: &'static str),
    /// The overlay turned the layer off: its file was empty and the manifest says
    /// `empty = "off"` (the file's name).
    OverlayOff(file: &'static str),
    /// The layer's selector (named) is off, or was not resolved for this composition.
    SelectorOff(selector: &'static str),
    /// The layer's selector (named) names a file that cannot be used (see its notice).
    SelectorRefused(selector: &'static str),
    /// The definition being composed (or the supervisor that spawned it) opted out of the
    /// selector layers.
    OptedOut,
}
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::FlagOff(flag) => write!(f, "flag `{flag}` off"),
            Skip::FlagOn(flag) => write!(f, "flag `{flag}` on"),
            Skip::NotInRole => f.write_str("out of scope"),
            Skip::Empty => f.write_str("empty"),
            Skip::NotSupplied => f.write_str("not supplied"),
            Skip::FactAbsent(fact) => write!(f, "fact `{fact}` absent"),
            Skip::FactValue(fact) => write!(f, "fact `{fact}` has another value"),
            Skip::When(cond) => write!(f, "condition `{cond}` does not hold"),
            Skip::Unless(conds) => write!(f, "`unless` holds: {conds}"),
            Skip::OverlayOff(file) => write!(f, "turned off by an empty `{file}`"),
            Skip::SelectorOff(name) => write!(f, "selector `{name}` off"),
            Skip::SelectorRefused(name) => write!(f, "selector `{name}` degraded"),
            Skip::OptedOut => f.write_str("opted out"),
        }
    }
}
