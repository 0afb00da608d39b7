// The web app is embedded from web/dist. Plain `cargo build` must work before the web app is
// built, so an empty folder stands in (the server then says the web app is not built).
fn main() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
    if !dist.exists() {
        std::fs::create_dir_all(&dist).expect("create web/dist");
    }
    println!("cargo:rerun-if-changed=../../web/dist");
    println!("cargo:rerun-if-changed=../../web/src/app/routes.json");
}
