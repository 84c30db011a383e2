//! The fuzz targets' one shared line: `toolpack_fuzz::target!("name")` is a libFuzzer target
//! that runs `toolpack::fuzzing`'s body of that name on each input, and
//! `toolpack_fuzz::server_target!("name")` one that runs `toolpack_mcp::fuzzing`'s.

/// Declares the libFuzzer target running the core's fuzz body `$name`.
#[macro_export]
macro_rules! target {
    ($name:literal) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            static BODY: std::sync::OnceLock<toolpack::fuzzing::Body> = std::sync::OnceLock::new();
            let body = BODY.get_or_init(|| {
                toolpack::fuzzing::target($name).expect(concat!("a fuzz body named ", $name))
            });
            body(data);
        });
    };
}

/// Declares the libFuzzer target running the server's fuzz body `$name`.
#[macro_export]
macro_rules! server_target {
    ($name:literal) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            static BODY: std::sync::OnceLock<toolpack_mcp::fuzzing::Body> =
                std::sync::OnceLock::new();
            let body = BODY.get_or_init(|| {
                toolpack_mcp::fuzzing::target($name)
                    .expect(concat!("a server fuzz body named ", $name))
            });
            body(data);
        });
    };
}
