//! `uniffi-bindgen`: generates the Kotlin and Swift sources from the built library.
fn main() {
    uniffi::uniffi_bindgen_main()
}
