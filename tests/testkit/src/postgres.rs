//! [`PgCluster`]: a throwaway PostgreSQL server for tests, from Debian's `postgresql`
//! binaries: `initdb` in a temporary directory (as the unprivileged `postgres` user when
//! the tests run as root, since PostgreSQL refuses to run as root), password
//! authentication (SCRAM), a free loopback port. Stopped and removed on drop.
//!
//! Without the binaries a test skips, saying so, unless `TOOLPACK_REQUIRE_POSTGRES` is
//! set (the test command sets it): then it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The database user of every test cluster.
pub const USER: &str = "toolpack";
/// Its password: tests check that it never shows in an answer, an error or a log.
pub const PASSWORD: &str = "pg-test-password-4f1d9c";

/// A running throwaway PostgreSQL server.
pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    run_as: Option<&'static str>,
}

impl PgCluster {
    /// A new cluster, started; `None` (the test skips) when PostgreSQL is not installed
    /// and not required.
    pub fn start() -> Option<Self> {
        let Some(bin) = bin_dir() else {
            return crate::missing(
                "TOOLPACK_REQUIRE_POSTGRES",
                "no /usr/lib/postgresql/*/bin/initdb exists",
                "PostgreSQL",
            );
        };
        let dir = tempfile::Builder::new()
            .prefix("toolpack-pg-")
            .tempdir()
            .expect("a temporary directory");
        let run_as = is_root().then_some("postgres");
        std::fs::write(dir.path().join("password"), PASSWORD).expect("password file");
        if let Some(user) = run_as {
            checked(
                Command::new("chown")
                    .args(["-R", &format!("{user}:{user}")])
                    .arg(dir.path()),
            );
        }
        let cluster = Self {
            port: crate::free_port(),
            dir,
            bin,
            run_as,
        };
        let data = cluster.data_dir();
        let password_file = cluster.dir.path().join("password");
        checked(cluster.server_command("initdb").args([
            "-D",
            &data,
            "-U",
            USER,
            &format!("--pwfile={}", password_file.display()),
            "--auth=scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync",
        ]));
        cluster.start_server();
        Some(cluster)
    }

    /// Starts the server (again, after [`PgCluster::stop_server`]) and waits for it.
    pub fn start_server(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log");
        checked(self.server_command("pg_ctl").args([
            "-D",
            &self.data_dir(),
            "-l",
            &log.to_string_lossy(),
            "-w",
            "-o",
            &options,
            "start",
        ]));
    }

    /// Stops the server (fast shutdown: open connections are cut).
    pub fn stop_server(&self) {
        checked(self.server_command("pg_ctl").args([
            "-D",
            &self.data_dir(),
            "-m",
            "fast",
            "-w",
            "stop",
        ]));
    }

    /// Turns TLS on (`ssl = on`, a server certificate for `127.0.0.1` issued by a new test
    /// CA, made with the `openssl` command) and restarts; returns the CA certificate's path,
    /// for clients to trust (`SSL_CERT_FILE`).
    pub fn enable_tls(&self) -> PathBuf {
        let dir = self.dir.path();
        let (ca, ca_key) = (dir.join("ca.crt"), dir.join("ca.key"));
        let data = PathBuf::from(self.data_dir());
        let (cert, key, request) = (
            data.join("server.crt"),
            data.join("server.key"),
            dir.join("server.csr"),
        );
        let extensions = dir.join("server.ext");
        std::fs::write(
            &extensions,
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
        )
        .expect("extensions file");
        let openssl = |args: &[&std::ffi::OsStr]| checked(Command::new("openssl").args(args));
        let os = |p: &Path| p.as_os_str().to_owned();
        openssl(&[
            "req".as_ref(),
            "-x509".as_ref(),
            "-newkey".as_ref(),
            "rsa:2048".as_ref(),
            "-nodes".as_ref(),
            "-days".as_ref(),
            "2".as_ref(),
            "-subj".as_ref(),
            "/CN=toolpack test CA".as_ref(),
            "-keyout".as_ref(),
            &os(&ca_key),
            "-out".as_ref(),
            &os(&ca),
        ]);
        openssl(&[
            "req".as_ref(),
            "-newkey".as_ref(),
            "rsa:2048".as_ref(),
            "-nodes".as_ref(),
            "-subj".as_ref(),
            "/CN=127.0.0.1".as_ref(),
            "-keyout".as_ref(),
            &os(&key),
            "-out".as_ref(),
            &os(&request),
        ]);
        openssl(&[
            "x509".as_ref(),
            "-req".as_ref(),
            "-in".as_ref(),
            &os(&request),
            "-CA".as_ref(),
            &os(&ca),
            "-CAkey".as_ref(),
            &os(&ca_key),
            "-CAcreateserial".as_ref(),
            "-days".as_ref(),
            "2".as_ref(),
            "-extfile".as_ref(),
            &os(&extensions),
            "-out".as_ref(),
            &os(&cert),
        ]);
        if let Some(user) = self.run_as {
            checked(
                Command::new("chown")
                    .arg(format!("{user}:{user}"))
                    .arg(&cert)
                    .arg(&key),
            );
        }
        checked(Command::new("chmod").arg("600").arg(&key));
        let mut conf =
            std::fs::read_to_string(data.join("postgresql.conf")).expect("postgresql.conf");
        conf.push_str("\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n");
        std::fs::write(data.join("postgresql.conf"), conf).expect("postgresql.conf");
        self.stop_server();
        self.start_server();
        ca
    }

    /// The URL of database `database` (libpq URL form, with the password).
    pub fn url(&self, database: &str) -> String {
        format!(
            "postgres://{USER}:{PASSWORD}@127.0.0.1:{}/{database}",
            self.port
        )
    }

    /// A new empty database; its URL.
    pub fn create_database(&self) -> String {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!("test_{}", NEXT.fetch_add(1, Ordering::SeqCst));
        checked(
            Command::new(self.bin.join("psql"))
                .env("PGPASSWORD", PASSWORD)
                .args(["-q", "-h", "127.0.0.1", "-p", &self.port.to_string()])
                .args(["-U", USER, "-d", "postgres", "-c"])
                .arg(format!("CREATE DATABASE {name}")),
        );
        self.url(&name)
    }

    fn data_dir(&self) -> String {
        self.dir.path().join("data").to_string_lossy().into_owned()
    }

    /// `program` of the server binaries, run as the unprivileged user when we are root.
    fn server_command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        match self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(path);
                command
            }
            None => Command::new(path),
        }
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self
            .server_command("pg_ctl")
            .args(["-D", &self.data_dir(), "-m", "immediate", "stop"])
            .output();
    }
}

/// The newest `/usr/lib/postgresql/<version>/bin` that has `initdb`.
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").is_file())
        .collect();
    versions.sort_by_key(|bin| version_of(bin));
    versions.pop()
}

fn version_of(bin: &Path) -> u32 {
    bin.parent()
        .and_then(|dir| dir.file_name())
        .and_then(|name| name.to_string_lossy().parse().ok())
        .unwrap_or(0)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

fn checked(command: &mut Command) -> Output {
    let output = command.output().expect("a PostgreSQL command starts");
    assert!(
        output.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}
