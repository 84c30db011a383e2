//! A toolpack whose saved places live in the PostgreSQL database at a URL (and whose other
//! data goes to a throwaway directory): shared by the PostgreSQL test binaries.

use toolpack::{Config, Toolpack};

/// A toolpack on the database at `url`.
pub fn toolpack(url: &str) -> Toolpack {
    let data = tempfile::tempdir().unwrap();
    Toolpack::new(
        Config::builder()
            .database_url(url)
            .database(toolpack_postgres::engine())
            .data_dir(data.path())
            .build(),
    )
    .unwrap()
}
