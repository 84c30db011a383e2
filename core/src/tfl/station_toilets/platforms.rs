//! Platform numbers from a toilet's location text.

use std::sync::LazyLock;

use regex::Regex;

static PLATFORMS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)platforms?\s+(\d+(?:\s*(?:,|&|/|and)\s*\d+)*)").expect("valid regex")
});
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("valid regex"));

/// Every platform number mentioned in `location`, deduplicated and ascending:
/// "platforms 3 & 4" → `[3, 4]`, "platform 2/3" → `[2, 3]`; lettered platforms give nothing.
pub fn platform_numbers(location: &str) -> Vec<u32> {
    let mut numbers: Vec<u32> = PLATFORMS
        .captures_iter(location)
        .flat_map(|caps| {
            let list = caps.get(1).map_or("", |m| m.as_str());
            NUMBER
                .find_iter(list)
                .filter_map(|m| m.as_str().parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

#[cfg(test)]
mod tests {
    use super::platform_numbers;

    #[test]
    fn real_location_texts() {
        let cases: &[(&str, &[u32])] = &[
            ("Located on platform 1", &[1]),
            ("Located on platform", &[]),
            ("Located on platforms 2,3,4", &[2, 3, 4]),
            ("Located on platforms 3 & 4", &[3, 4]),
            ("Located on platforms 1 & 5", &[1, 5]),
            ("Located on platform 2/3", &[2, 3]),
            ("Located on platform 1/2", &[1, 2]),
            ("Located on platform C", &[]),
            ("Located on National Rail platform 4", &[4]),
            ("Located in waiting area on platform 6", &[6]),
            ("Located in corridor to platform 5", &[5]),
            ("Adjacent to DLR platform 16.", &[16]),
            ("Located in ticket hall", &[]),
            ("Changing Places available", &[]),
            ("Platforms 1 and 2, also platform 2", &[1, 2]),
            ("", &[]),
        ];
        for (text, expected) in cases {
            assert_eq!(platform_numbers(text), *expected, "{text}");
        }
    }
}
