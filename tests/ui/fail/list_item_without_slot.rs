// A list item template that never prints the item.
mod d {
    doctrine::doctrine!("list_item_without_slot.toml");
}

fn main() {}
