//! The book's page read back as a browser parses it (`scraper`, html5ever): per prompt
//! section its names, the text of its `data-seg` elements joined, its breakpoints, layers,
//! messages' frames and user-file marks, and the JSON string its copy control copies.

#![allow(dead_code)]

use scraper::{ElementRef, Html, Selector};

pub struct Page {
    pub sections: Vec<Section>,
    /// `<script>` elements that are not JSON data: the page's own script only.
    pub scripts: usize,
    /// Index rows (one per distinct prompt).
    pub rows: usize,
    pub html: Html,
}

pub struct Section {
    pub id: String,
    pub names: Vec<String>,
    /// The text of the section's `data-seg` elements, joined in order.
    pub bytes: String,
    /// `(data-at, data-tokens)` of each breakpoint, in order.
    pub breakpoints: Vec<(usize, usize)>,
    pub layers: Vec<Layer>,
    /// The text and label of each user-file mark, in order.
    pub user: Vec<(String, String)>,
    /// The text and label of each mark of a caller's value inside shipped text, in order.
    pub values: Vec<(String, String)>,
    /// The copy control's string, as JSON.
    pub json: String,
    /// Each message's frame, in order.
    pub messages: Vec<Message>,
}

pub struct Message {
    pub role: String,
    /// `before` or `after` the conversation's history.
    pub place: String,
    pub breakpoint: bool,
    /// The frame's heading.
    pub head: String,
    /// The text of its `data-seg` elements joined: its wrapper and its layers.
    pub bytes: String,
    /// The text of its top and bottom bands (empty without a wrapper).
    pub open: String,
    pub close: String,
    /// The layers whose blocks are inside it.
    pub layers: Vec<String>,
}

pub struct Layer {
    pub name: String,
    pub classes: Vec<String>,
    pub label: String,
}

fn select(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef<'_>) -> String {
    e.text().collect()
}

pub fn read(html: &str) -> Page {
    let html = Html::parse_document(html);
    let sections = html
        .select(&select("section.prompt"))
        .map(section)
        .collect();
    let scripts = html
        .select(&select("script"))
        .filter(|s| s.attr("type") != Some("application/json"))
        .count();
    let rows = html.select(&select("#prompts tbody tr")).count();
    Page {
        sections,
        scripts,
        rows,
        html,
    }
}

fn section(s: ElementRef<'_>) -> Section {
    let attr = |e: ElementRef<'_>, name: &str| e.attr(name).unwrap().to_string();
    let number = |e: ElementRef<'_>, name: &str| attr(e, name).parse::<usize>().unwrap();
    Section {
        id: attr(s, "id"),
        names: s.select(&select("p.names span.name")).map(text).collect(),
        bytes: s.select(&select("[data-seg]")).map(text).collect(),
        breakpoints: s
            .select(&select(".bp"))
            .map(|b| (number(b, "data-at"), number(b, "data-tokens")))
            .collect(),
        layers: s
            .select(&select(".layer"))
            .map(|l| Layer {
                name: attr(l, "data-layer"),
                classes: l.value().classes().map(String::from).collect(),
                label: s_text(l, ".label"),
            })
            .collect(),
        user: s
            .select(&select(".text [data-user]"))
            .map(|u| (text(u), attr(u, "data-user")))
            .collect(),
        values: s
            .select(&select(".text [data-val]"))
            .map(|v| (text(v), attr(v, "data-val")))
            .collect(),
        json: s
            .select(&select("script[type=\"application/json\"]"))
            .map(text)
            .collect(),
        messages: s.select(&select(".text .message")).map(message).collect(),
    }
}

fn message(m: ElementRef<'_>) -> Message {
    let attr = |name: &str| m.attr(name).unwrap().to_string();
    Message {
        role: attr("data-role"),
        place: attr("data-place"),
        breakpoint: attr("data-breakpoint") == "true",
        head: s_text(m, ".head"),
        bytes: m.select(&select("[data-seg]")).map(text).collect(),
        open: s_text(m, ".wrap.open [data-seg]"),
        close: s_text(m, ".wrap.close [data-seg]"),
        layers: m
            .select(&select(".layer"))
            .map(|l| l.attr("data-layer").unwrap().to_string())
            .collect(),
    }
}

fn s_text(e: ElementRef<'_>, selector: &str) -> String {
    e.select(&select(selector)).map(text).collect()
}
