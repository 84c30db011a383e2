//! Finding the system, container or component a call names, with a "did you mean"
//! when it names none: the nearest id by edit distance, or one that contains it.

use crate::loko::project::model::{Entity, Level, Project, find};
use crate::loko::project::slug::slugify;
use crate::loko::response::Failure;
use crate::nearest::distance;

/// The system `wanted` (an id or a name).
pub fn system<'a>(project: &'a Project, wanted: &str) -> Result<&'a Entity, Failure> {
    child(&project.systems, Level::System, wanted, "")
}

/// The entity at `path` (ids or names, outermost first: a system, then a container in
/// it, then a component in that); at most three parts.
pub fn at_path<'a>(project: &'a Project, path: &[impl AsRef<str>]) -> Result<&'a Entity, Failure> {
    let (first, rest) = path
        .split_first()
        .ok_or_else(|| Failure::invalid("an entity path needs at least a system"))?;
    let mut found = system(project, first.as_ref())?;
    for (wanted, level) in rest.iter().zip([Level::Container, Level::Component]) {
        found = child_of(found, level, wanted.as_ref())?;
    }
    Ok(found)
}

/// The child of `parent` that `wanted` (an id or a name) means.
pub fn child_of<'a>(parent: &'a Entity, level: Level, wanted: &str) -> Result<&'a Entity, Failure> {
    let within = format!(" in {} '{}'", parent.level.role(), parent.id);
    child(&parent.children, level, wanted, &within)
}

fn child<'a>(
    entities: &'a [Entity],
    level: Level,
    wanted: &str,
    within: &str,
) -> Result<&'a Entity, Failure> {
    find(entities, wanted).ok_or_else(|| {
        not_found(
            &format!("{} '{}' not found{within}", level.title(), wanted.trim()),
            wanted,
            entities.iter().map(|e| e.id.as_str()),
        )
    })
}

/// A `NOT_FOUND` failure for `wanted` among `candidates`: the message suggests the
/// nearest one, and the details list the first few.
pub fn not_found<'a>(
    message: &str,
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Failure {
    let mut candidates: Vec<&str> = candidates.into_iter().collect();
    candidates.sort_unstable();
    candidates.dedup();
    let message = match nearest(wanted, &candidates) {
        Some(near) => format!("{message}; did you mean '{near}'?"),
        None => message.to_owned(),
    };
    let failure = Failure::not_found(message);
    if candidates.is_empty() {
        return failure.details("there are none");
    }
    const SHOWN: usize = 10;
    let more = candidates.len().saturating_sub(SHOWN);
    let mut listed = candidates[..candidates.len().min(SHOWN)].join(", ");
    if more > 0 {
        listed.push_str(&format!(" and {more} more"));
    }
    failure.details(format!("known: {listed}"))
}

/// The candidate nearest to `wanted`: the smallest edit distance between slugs (at most
/// a third of the length, at least 2), else the first that contains it or that it
/// contains.
pub fn nearest<'a>(wanted: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let wanted = slugify(wanted.rsplit('/').next().unwrap_or(wanted));
    if wanted.is_empty() {
        return None;
    }
    let short = |c: &str| slugify(c.rsplit('/').next().unwrap_or(c));
    let limit = (wanted.chars().count() / 3).max(2);
    candidates
        .iter()
        .map(|c| (distance(&wanted, &short(c)), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
        .or_else(|| {
            candidates.iter().copied().find(|c| {
                let c = short(c);
                c.contains(&wanted) || wanted.contains(&c)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_id_is_suggested() {
        let ids = ["payments", "online-shop", "api/order-handler"];
        assert_eq!(nearest("paymnts", &ids), Some("payments"));
        assert_eq!(nearest("Online Shop", &ids), Some("online-shop"));
        assert_eq!(nearest("order", &ids), Some("api/order-handler"));
        assert_eq!(nearest("zzzzzz", &ids), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn not_found_lists_the_candidates() {
        let f = not_found(
            "System 'paymnts' not found",
            "paymnts",
            ["payments", "shop"],
        );
        assert_eq!(
            f.message,
            "System 'paymnts' not found; did you mean 'payments'?"
        );
        assert_eq!(f.details.as_deref(), Some("known: payments, shop"));
        let none = not_found("System 'x' not found", "x", []);
        assert_eq!(none.details.as_deref(), Some("there are none"));
    }
}
