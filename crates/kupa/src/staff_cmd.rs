//! `kupa staff add`: a staff user of the live monitoring and the other staff screens (decision
//! 0026); `kupa staff disable EMAIL` (their logins end at once) and `kupa staff password EMAIL`
//! (a new password; their logins end). A password comes from KUPA_STAFF_PASSWORD or the first
//! line of standard input, never from a flag (flags show in `ps` and shell history).

use std::io::BufRead;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use kupa_app::staff::{Role, StaffService, StaffSignup};
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

#[derive(Subcommand)]
pub enum StaffCommand {
    /// Add a staff user.
    Add(AddArgs),
    /// Disable a staff user: no more logins, and every login they have ends now.
    Disable {
        /// The user's email.
        email: String,
    },
    /// Set a staff user's password (from KUPA_STAFF_PASSWORD or standard input); their logins
    /// end.
    Password {
        /// The user's email.
        email: String,
    },
}

#[derive(Args)]
pub struct AddArgs {
    #[arg(long)]
    pub email: String,
    #[arg(long)]
    pub first_name: String,
    #[arg(long)]
    pub last_name: String,
    /// manager, ticketReferenceAgent or usher.
    #[arg(long)]
    pub role: String,
    /// The businesses the user sees, comma separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub business_ids: Vec<i64>,
    /// Give the account a TOTP second factor; its secret is printed once, for the user's app.
    #[arg(long)]
    pub totp: bool,
}

fn password() -> anyhow::Result<String> {
    if let Ok(p) = std::env::var("KUPA_STAFF_PASSWORD")
        && !p.is_empty()
    {
        return Ok(p);
    }
    eprintln!("Password (one line on standard input):");
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read the password from standard input")?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

pub async fn add(db: Db, a: AddArgs) -> anyhow::Result<()> {
    let role = Role::parse(&a.role).with_context(|| {
        format!(
            "unknown role {:?}: manager, ticketReferenceAgent or usher",
            a.role
        )
    })?;
    let db = Arc::new(db);
    let created = service(&db)
        .add_user(&StaffSignup {
            email: a.email.clone(),
            first_name: a.first_name,
            last_name: a.last_name,
            role,
            business_ids: a.business_ids,
            password: password()?,
            with_totp: a.totp,
        })
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("staff user {} added (userId {})", a.email, created.user_id);
    if let Some(secret) = created.totp_secret {
        println!("TOTP secret (enter it in the user's authenticator app; shown once): {secret}");
        println!(
            "{}",
            kupa_app::staff::totp::otpauth_uri(&secret, &a.email.to_lowercase())
        );
    }
    db.close().await;
    Ok(())
}

fn service(db: &Arc<Db>) -> StaffService {
    StaffService::new(db.clone(), db.clone(), Arc::new(ServerClock::new()))
}

pub async fn disable(db: Db, email: &str) -> anyhow::Result<()> {
    let db = Arc::new(db);
    let done = service(&db).disable_user(email).await;
    db.close().await;
    done.map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("staff user {email} disabled; their logins have ended");
    Ok(())
}

pub async fn set_password(db: Db, email: &str) -> anyhow::Result<()> {
    let db = Arc::new(db);
    let done = service(&db).set_password(email, &password()?).await;
    db.close().await;
    done.map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("staff user {email}: password set; their logins have ended");
    Ok(())
}

/// The demo chain's staff, right after the demo was loaded; in test mode their passwords are
/// printed (to standard output, not the log).
pub async fn add_demo_staff(
    db: &Arc<Db>,
    clock: Arc<ServerClock>,
    test_mode: bool,
) -> anyhow::Result<()> {
    let staff = StaffService::new(db.clone(), db.clone(), clock);
    let printed = staff
        .add_demo_staff(test_mode)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for (email, password) in printed {
        println!("TEST MODE demo staff: {email} / {password}");
    }
    Ok(())
}
