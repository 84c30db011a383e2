//! The argument checks the live TfL tools share: a TfL id, and a point with a radius.

/// Whether `id` (trimmed, lower case) is a TfL line or mode id: letters, digits and `-`,
/// at most 40, so no id can change the request's path.
pub(crate) fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A line's id as an answer gives it beside the line's `name`: only when it is not the name
/// in lower case (`elizabeth` for "Elizabeth line"), since the line tools take a name that
/// is its id in any case.
pub(crate) fn id_beside_name(name: &str, id: &str) -> Option<String> {
    (name.to_lowercase() != id).then(|| id.to_owned())
}

/// The line id in field `line` (`raw` trimmed, lower case), or why it is not one.
pub(crate) fn line_id(raw: &str) -> Result<String, String> {
    let line = raw.trim().to_ascii_lowercase();
    if is_id(&line) {
        Ok(line)
    } else {
        Err(format!(
            "Field 'line' holds \"{}\", which is not a line id (letters, digits and '-', at \
most 40).",
            crate::tfl::upstream::clip(raw, 60)
        ))
    }
}

/// The point `lat`/`lon` and the search radius in metres (`default_m` when not given,
/// at most `max_m`), or why they are not one.
pub(crate) fn point(
    lat: Option<f64>,
    lon: Option<f64>,
    radius: Option<u32>,
    default_m: u32,
    max_m: u32,
) -> Result<(f64, f64, u32), String> {
    let (Some(lat), Some(lon)) = (lat, lon) else {
        return Err("Give both 'lat' and 'lon'.".into());
    };
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
        return Err(
            "Field 'lat' must be between -90 and 90, and 'lon' between -180 and 180.".into(),
        );
    }
    let radius = radius.unwrap_or(default_m);
    if radius == 0 || radius > max_m {
        return Err(format!(
            "Field 'radius' must be between 1 and {max_m} metres."
        ));
    }
    Ok((lat, lon, radius))
}
