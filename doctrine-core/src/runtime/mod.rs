pub mod build;
pub mod choice;
pub mod compose;
pub mod explain;
pub mod fact;
pub mod layer;
pub mod prompt;
