//! Distances on the Earth's surface, shared by the families that find things near a point.

/// The great-circle distance in metres between two points given as (latitude, longitude)
/// in degrees: haversine, on the mean Earth radius.
pub(crate) fn distance_m(from: (f64, f64), to: (f64, f64)) -> f64 {
    const EARTH_RADIUS_M: f64 = 6_371_008.8;
    let (lat1, lat2) = (from.0.to_radians(), to.0.to_radians());
    let dlat = lat2 - lat1;
    let dlon = (to.1 - from.1).to_radians();
    let a = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * a.sqrt().min(1.0).asin()
}

/// A coordinate to 6 decimals (about 0.1 m): what a map or the next call needs, without
/// the upstream's 15 digits.
pub(crate) fn six_decimals(degrees: f64) -> f64 {
    (degrees * 1e6).round() / 1e6
}
