//! "Did you mean": the known names nearest to one nobody knows, by edit distance. Shared by
//! every family that answers "not found" with suggestions.

/// Levenshtein distance between `a` and `b`, by characters.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidates near `wanted`, nearest first (ties in the candidates' order), at most
/// `max`: those within an edit distance of a third of its length (at least 2), then those
/// that contain it or that it contains. Compared without case.
#[cfg_attr(not(feature = "tfl"), allow(dead_code))]
pub(crate) fn nearest<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<&'a str> {
    let wanted = wanted.trim().to_lowercase();
    if wanted.is_empty() {
        return Vec::new();
    }
    let limit = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, usize, &str)> = candidates
        .into_iter()
        .enumerate()
        .filter_map(|(order, candidate)| {
            let lower = candidate.to_lowercase();
            let d = distance(&wanted, &lower);
            if d <= limit {
                Some((d, order, candidate))
            } else if lower.contains(&wanted) || wanted.contains(&lower) {
                Some((limit + 1, order, candidate))
            } else {
                None
            }
        })
        .collect();
    scored.sort_by_key(|(d, order, _)| (*d, *order));
    let mut found: Vec<&str> = Vec::new();
    for (_, _, candidate) in scored {
        if !found.contains(&candidate) && found.len() < max {
            found.push(candidate);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("ŝ", "s"), 1);
    }

    #[test]
    fn nearest_first_then_containing() {
        let lines = ["central", "circle", "elizabeth", "district", "victoria"];
        assert_eq!(nearest("centrall", lines, 3), ["central"]);
        assert_eq!(nearest("Elizabeth-Line", lines, 3), ["elizabeth"]);
        assert_eq!(nearest("circel", lines, 3), ["circle"]);
        assert!(nearest("zzzzzz", lines, 3).is_empty());
        assert!(nearest("  ", lines, 3).is_empty());
        assert_eq!(nearest("ci", ["circle", "city", "ci"], 2), ["ci", "city"]);
    }
}
