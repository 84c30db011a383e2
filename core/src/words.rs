//! How the families' messages say a count in words, one way everywhere.

/// The end of a message that says how many more there are: " 1 more stop.", " 3 more
/// stops."; nothing when there are none.
pub(crate) fn more(count: usize, one: &str, many: &str) -> String {
    match count {
        0 => String::new(),
        1 => format!(" 1 more {one}."),
        n => format!(" {n} more {many}."),
    }
}

#[cfg(test)]
mod tests {
    use super::more;

    #[test]
    fn none_one_and_many_more() {
        assert_eq!(more(0, "stop", "stops"), "");
        assert_eq!(more(1, "stop", "stops"), " 1 more stop.");
        assert_eq!(
            more(4, "place nearby", "places nearby"),
            " 4 more places nearby."
        );
    }
}
