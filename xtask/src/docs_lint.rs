//! Rules for the documentation a reader gets (README.md and docs/), checked by the test
//! command: it never sends a reader to an issue they cannot see.

/// Where `text` cites an issue by number ("issue 43", "issues #42"), as the cited words.
#[cfg(test)]
fn issue_citations(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| {
            let word = pair[0]
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .to_ascii_lowercase();
            let number = pair[1].trim_start_matches('#');
            (word == "issue" || word == "issues")
                && number.starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|pair| pair.join(" "))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::issue_citations;
    use std::path::Path;

    #[test]
    fn a_citation_is_an_issue_word_before_a_number() {
        assert_eq!(
            issue_citations("the bound (issue 43's 10 %) and Issues #7, not an issue here"),
            ["(issue 43's", "Issues #7,"]
        );
    }

    #[test]
    fn readme_and_docs_cite_no_issue_numbers() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = vec![root.join("README.md")];
        for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
            let path = entry.expect("a docs entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
        let cited: Vec<String> = files
            .iter()
            .flat_map(|path| {
                let text = std::fs::read_to_string(path).expect("readable");
                issue_citations(&text)
                    .into_iter()
                    .map(move |c| format!("{}: {c}", path.display()))
            })
            .collect();
        assert!(
            cited.is_empty(),
            "say what the bound or change is instead: {cited:#?}"
        );
    }
}
