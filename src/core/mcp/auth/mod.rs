//! OAuth 2.1 as the MCP spec (2025-11-25) defines it, for streamable HTTP servers: discovery,
//! client registration, authorization code with PKCE through a loopback redirect, client
//! credentials, refresh, step-up on `insufficient_scope`, tokens kept per server URL.
//!
//! The HTTP transport (`super::http`) asks the `Authorizer` for a bearer token before each
//! request and hands it every 401 and `insufficient_scope` 403; the MCP messages themselves
//! never leave the wire tap. Every token and client secret is taught to the redactor
//! (`log::learn_secret`) before anything that holds it is logged.

pub mod assertion;
pub mod challenge;
pub mod client;
pub mod discovery;
pub mod dpop;
pub mod fetch;
pub mod grant;
pub mod jwt;
pub mod loopback;
pub mod rules;
pub mod store;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

pub use challenge::Challenge;
pub use client::{AuthMethod, ClientInfo, ClientSettings, Registration};
pub use store::Record;

use super::log::LogKind;
use super::wire::{ServerEvent, WireTap};
use fetch::Fetcher;

/// What a target says about logging in (flags, or a config entry's `"oauth"` object).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct OAuthConfig {
    pub client: ClientSettings,
    /// Use the client credentials grant (machine to machine, no browser) with the client's id
    /// and secret.
    pub client_credentials: bool,
    /// Scopes to ask for, instead of those the server names.
    pub scope: Option<String>,
    /// The loopback port for the redirect (0: any free port).
    pub callback_port: u16,
    /// Whether tokens are bound to a proof key (DPoP).
    pub dpop: dpop::Mode,
    /// Log in with the JWT bearer grant, the assertion from here (workload identity, or the
    /// enterprise IdP), instead of a browser.
    pub assertion: Option<assertion::Source>,
    /// A config entry's client id or secret whose `${VAR}` is not set: left out, and a login
    /// stops with what to set instead (a credential sent as written is never the one meant).
    pub unset: Vec<UnsetSetting>,
}

/// A client setting of a config entry's `"oauth"` left as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsetSetting {
    /// The setting: `clientId`, `clientSecret`, `idpClientId` or `idpClientSecret`.
    pub setting: &'static str,
    /// What is not set and how to give it, naming the entry and the variable (never a value).
    pub message: String,
}

impl std::fmt::Debug for OAuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthConfig")
            .field("client_id", &self.client.client_id)
            .field("client_secret", &self.client.client_secret.as_ref().map(|_| super::log::MASK))
            .field("client_metadata_url", &self.client.client_metadata_url)
            .field("private_key", &self.client.private_key_pem.as_ref().map(|_| super::log::MASK))
            .field("client_credentials", &self.client_credentials)
            .field("scope", &self.scope)
            .field("callback_port", &self.callback_port)
            .field("dpop", &self.dpop)
            .field("assertion", &self.assertion)
            .field("unset", &self.unset)
            .finish()
    }
}

/// A step of a login, for the user to see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Discovery and registration under way.
    Starting {
        server: String,
    },
    /// The authorization URL: opened (or not, and why), and always shown.
    OpenUrl {
        url: String,
        opened: Result<(), String>,
    },
    LoggedIn {
        scope: Option<String>,
        how: String,
    },
    Refreshed,
    Failed(String),
}

pub type Notify = Arc<dyn Fn(Notice) + Send + Sync>;

/// How logins run for a session.
#[derive(Clone)]
pub struct AuthOptions {
    /// Never start an interactive login: fail when no stored token works (CI).
    pub no_browser: bool,
    /// Open the authorization URL with `$BROWSER` / the platform opener (the TUI opens on `o`).
    pub open_browser: bool,
    /// Ignore the stored token and log in anew (`mcplens auth login`).
    pub fresh: bool,
    /// Log in before the first request instead of waiting for a 401 (`--auth`).
    pub up_front: bool,
    /// How long the browser may take to come back.
    pub login_timeout: Duration,
    pub notify: Option<Notify>,
    /// Where tokens are kept; None: `store::dir()`.
    pub store_dir: Option<PathBuf>,
}

impl Default for AuthOptions {
    fn default() -> Self {
        AuthOptions {
            no_browser: false,
            open_browser: true,
            fresh: false,
            up_front: false,
            login_timeout: Duration::from_secs(300),
            notify: None,
            store_dir: None,
        }
    }
}

impl std::fmt::Debug for AuthOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthOptions")
            .field("no_browser", &self.no_browser)
            .field("open_browser", &self.open_browser)
            .field("fresh", &self.fresh)
            .field("up_front", &self.up_front)
            .field("login_timeout", &self.login_timeout)
            .finish_non_exhaustive()
    }
}

/// The login state, for `auth status` and the TUI's server line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginState {
    /// No token for this server.
    None,
    /// A login is under way.
    InProgress,
    /// A token; `expires_at` in seconds since the epoch.
    LoggedIn { expires_at: Option<u64>, scope: Option<String>, refreshable: bool },
}

/// Most interactive logins (or step-ups) one request may start before it gives up.
pub const MAX_LOGINS_PER_REQUEST: usize = 3;

pub struct Authorizer {
    server_url: String,
    config: OAuthConfig,
    options: AuthOptions,
    fetch: Fetcher,
    tap: Arc<WireTap>,
    store_dir: Option<PathBuf>,
    record: RwLock<Option<Record>>,
    /// One login or refresh at a time; a request that waited finds the new token.
    flow: tokio::sync::Mutex<()>,
    in_progress: Mutex<bool>,
    /// Set once `up_front` has run.
    started: tokio::sync::OnceCell<()>,
    /// The proof key the tokens are bound to (DPoP), read from the record once.
    key: RwLock<Option<Arc<dpop::Key>>>,
    /// The DPoP nonces the servers handed out, by origin.
    nonces: dpop::Nonces,
    /// Why the stored token cannot be sent, and what to do (`store::unusable`).
    unusable: Option<String>,
}

impl Authorizer {
    pub fn new(
        server_url: &str,
        config: OAuthConfig,
        options: AuthOptions,
        tap: Arc<WireTap>,
        timeout: Duration,
    ) -> Arc<Self> {
        if let Some(s) = &config.client.client_secret {
            super::log::learn_secret(s);
        }
        let store_dir = options.store_dir.clone().or_else(store::dir);
        let mut record = match &store_dir {
            Some(dir) => match store::load(dir, server_url) {
                Ok(r) => r,
                Err(e) => {
                    tap.log().push(LogKind::Warning, &format!("auth: {e}; logging in anew"));
                    None
                }
            },
            None => None,
        };
        if let Some(r) = record.as_mut().filter(|r| r.client.registration == Registration::PreRegistered) {
            // The file never holds the user's own client secret or key: they come from the flags
            // or config.
            r.client.client_secret = config.client.client_secret.clone();
            r.client.private_key_pem = config.client.private_key_pem.clone();
        }
        // A token no header can carry is never sent: connecting stops with what to do, unless
        // this is the new login that replaces it.
        let unusable = record
            .as_mut()
            .and_then(|r| {
                let why = store::unusable(store_dir.as_deref()?, r)?;
                r.access_token = None;
                Some(why)
            })
            .filter(|_| !options.fresh);
        if options.fresh
            && let Some(r) = record.as_mut()
        {
            // A new login keeps the registered client, not the tokens.
            r.access_token = None;
            r.refresh_token = None;
        }
        let key = record.as_mut().and_then(|r| stored_key(r, &tap));
        let fetch = Fetcher::new(tap.log().clone(), timeout);
        Arc::new(Authorizer {
            server_url: server_url.to_string(),
            config,
            options,
            fetch,
            tap,
            store_dir,
            record: RwLock::new(record),
            flow: tokio::sync::Mutex::new(()),
            in_progress: Mutex::new(false),
            started: tokio::sync::OnceCell::new(),
            key: RwLock::new(key),
            unusable,
            nonces: dpop::Nonces::default(),
        })
    }

    fn key(&self) -> Option<Arc<dpop::Key>> {
        self.key.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The headers that present `token` on a request to `url`: `Authorization: DPoP` and a
    /// fresh proof for a bound token, else `Authorization: Bearer`.
    pub fn presentation(&self, method: &str, url: &str, token: &str) -> Vec<(&'static str, String)> {
        let bound = self.record().is_some_and(|r| r.token_type.as_deref() == Some("DPoP"));
        if let Some(key) = self.key().filter(|_| bound) {
            match key.proof(method, url, Some(token), self.nonces.get(url).as_deref()) {
                Ok(proof) => return vec![("Authorization", format!("DPoP {token}")), ("DPoP", proof)],
                Err(e) => self.tap.log().push(LogKind::Warning, &format!("auth: {e}")),
            }
        }
        vec![("Authorization", format!("Bearer {token}"))]
    }

    /// Keeps a `DPoP-Nonce` an MCP server answered with; true when it is new (a request refused
    /// with `use_dpop_nonce` is then worth sending once more).
    pub fn note_nonce(&self, url: &str, nonce: &str) -> bool {
        self.nonces.note(url, nonce)
    }

    /// The proof key for a login with `server`: kept from the record when there is one (the
    /// refresh token stays bound to it), else a new one; None when tokens are not to be bound.
    fn dpop_for(&self, server: &discovery::ServerMetadata) -> Result<Option<Arc<dpop::Key>>, String> {
        if !dpop::wanted(self.config.dpop, server)? {
            return Ok(None);
        }
        let key = match self.key() {
            Some(k) => k,
            None => Arc::new(dpop::Key::generate()?),
        };
        self.tap.log().push(
            LogKind::Info,
            &format!("auth: tokens will be bound to a DPoP key (ES256, jkt {})", key.thumbprint()),
        );
        Ok(Some(key))
    }

    /// Why the stored token cannot be sent, and what to do; the session does not start then.
    pub fn unusable(&self) -> Option<&str> {
        self.unusable.as_deref()
    }

    pub fn state(&self) -> LoginState {
        if *self.in_progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return LoginState::InProgress;
        }
        match self.record().filter(|r| r.access_token.is_some()) {
            Some(r) => LoginState::LoggedIn {
                expires_at: r.expires_at,
                scope: r.scope.clone(),
                refreshable: r.refresh_token.is_some(),
            },
            None => LoginState::None,
        }
    }

    pub fn record(&self) -> Option<Record> {
        self.record.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    fn token(&self) -> Option<String> {
        self.record().and_then(|r| r.access_token)
    }

    /// The token to send with the next request: the stored one, refreshed first when it has
    /// expired; the `--auth` login runs here, before the first request.
    pub async fn bearer(&self) -> Option<String> {
        if self.options.up_front {
            self.started
                .get_or_init(|| async {
                    if self.token().is_none()
                        && let Err(e) = self.login(None, &[]).await
                    {
                        self.tap.log().push(LogKind::Warning, &format!("auth: login before connecting failed: {e}"));
                    }
                })
                .await;
        }
        let record = self.record()?;
        if record.access_token.is_some() && record.expired(crate::dirs::now_secs()) && record.refresh_token.is_some() {
            let _flow = self.flow.lock().await;
            // Another request may have refreshed it while this one waited.
            if let Some(r) = self.record().filter(|r| !r.expired(crate::dirs::now_secs())) {
                return r.access_token;
            }
            if let Err(e) = self.refresh().await {
                self.tap.log().push(LogKind::Warning, &format!("auth: {e}"));
            }
        }
        self.token()
    }

    /// A 401 to a request sent with `sent` (or no token): refresh, or log in; the new token.
    pub async fn unauthorized(&self, sent: Option<&str>, header: &str) -> Result<String, String> {
        let challenge = Challenge::parse(header);
        let _flow = self.flow.lock().await;
        if let Some(now) = self.token()
            && Some(now.as_str()) != sent
        {
            return Ok(now);
        }
        if sent.is_some() && self.record().is_some_and(|r| r.refresh_token.is_some()) {
            match self.refresh().await {
                Ok(t) => return Ok(t),
                Err(e) => self.tap.log().push(LogKind::Warning, &format!("auth: {e}; logging in anew")),
            }
        }
        self.login_locked(Some(challenge), &[]).await
    }

    /// A 403 `insufficient_scope`: log in again asking for the scopes granted so far and those
    /// the challenge names.
    pub async fn insufficient_scope(&self, header: &str) -> Result<String, String> {
        let challenge = Challenge::parse(header);
        let _flow = self.flow.lock().await;
        let had: Vec<String> =
            self.record().and_then(|r| r.scope).map(|s| challenge::split_scopes(&s)).unwrap_or_default();
        self.tap.log().push(
            LogKind::Info,
            &format!(
                "auth: the server wants more scopes ({}); logging in again",
                crate::sanitize::line(challenge.scope.as_deref().unwrap_or("none named"))
            ),
        );
        self.login_locked(Some(challenge), &had).await
    }

    /// A full login now (`mcplens auth login`, `--auth`).
    pub async fn login(&self, challenge: Option<Challenge>, extra_scopes: &[String]) -> Result<String, String> {
        let _flow = self.flow.lock().await;
        self.login_locked(challenge, extra_scopes).await
    }

    async fn login_locked(&self, challenge: Option<Challenge>, extra_scopes: &[String]) -> Result<String, String> {
        if let Some(u) = self.config.unset.first() {
            let e = format!("{}; the login does not send it as written", u.message);
            self.tap.log().push(LogKind::Warning, &format!("auth: login failed: {e}"));
            self.notify(Notice::Failed(e.clone()));
            return Err(e);
        }
        if self.options.no_browser && !self.config.client_credentials && self.config.assertion.is_none() {
            return Err(format!(
                "the server wants a login and --no-browser forbids one here; no stored token works for {}: \
                 run `mcplens auth login --url {}` first (or use client credentials)",
                self.server_url, self.server_url
            ));
        }
        self.set_in_progress(true);
        let result = self.run_login(challenge.unwrap_or_default(), extra_scopes).await;
        self.set_in_progress(false);
        match &result {
            Ok(_) => {}
            Err(e) => {
                self.tap.log().push(LogKind::Warning, &format!("auth: login failed: {e}"));
                self.notify(Notice::Failed(e.clone()));
            }
        }
        result
    }

    fn set_in_progress(&self, on: bool) {
        *self.in_progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = on;
        // Pauses the request clocks while the user is in the browser (see `Session::request_raw`).
        self.tap.emit(ServerEvent::Asking(on));
    }

    fn notify(&self, notice: Notice) {
        if let Some(n) = &self.options.notify {
            n(notice);
        }
    }

    async fn run_login(&self, challenge: Challenge, extra_scopes: &[String]) -> Result<String, String> {
        self.notify(Notice::Starting { server: self.server_url.clone() });
        let found = discovery::discover(&self.fetch, &self.server_url, challenge.resource_metadata.as_deref()).await?;
        let scope = self.scope_for(&challenge, &found, extra_scopes);
        let stored_client = self.record().filter(|r| r.token_endpoint == found.server.token_endpoint).map(|r| r.client);
        if self.config.client_credentials {
            return self.client_credentials(&found, scope, stored_client.as_ref()).await;
        }
        if let Some(source) = &self.config.assertion {
            return self.jwt_bearer(&found, scope, stored_client.as_ref(), source).await;
        }
        // Refused before anything is registered or opened.
        rules::check_pkce(&found.server)?;
        let (listener, stored_client) = self.listen(stored_client).await?;
        let client = client::resolve(
            &self.fetch,
            &self.config.client,
            &found.server,
            &listener.redirect_uri,
            &["authorization_code", "refresh_token"],
            stored_client.as_ref(),
        )
        .await?;
        let verifier = grant::random_token(48)?;
        let state = grant::random_token(24)?;
        let url = authorization_url(&found, &client, &listener.redirect_uri, &state, &verifier, scope.as_deref())?;
        self.tap.log().push(
            LogKind::Info,
            &format!("auth: authorization request ({}) sent to the browser", client.registration.label()),
        );
        let opened = if self.options.open_browser { crate::opener::open_url(&url) } else { Err(String::new()) };
        self.notify(Notice::OpenUrl { url, opened });
        let callback = tokio::time::timeout(self.options.login_timeout, listener.wait(&state))
            .await
            .map_err(|_| format!("no login came back within {}s", self.options.login_timeout.as_secs()))?;
        let code = check_callback(&callback, &found.server)?;
        super::log::learn_secret(&code);
        let key = self.dpop_for(&found.server)?;
        let grant = grant::Grant::Code { code: &code, redirect_uri: &listener.redirect_uri, verifier: &verifier };
        let tokens =
            grant::request(&self.fetch, &self.token_request(&found, &client, None, key.as_deref()), grant).await?;
        self.keep(&found, Obtained { client, tokens, asked: scope, grant: "authorization_code", key })
    }

    /// A token request to the authorization server `found` names.
    fn token_request<'a>(
        &'a self,
        found: &'a discovery::Discovered,
        client: &'a ClientInfo,
        scope: Option<&'a str>,
        key: Option<&'a dpop::Key>,
    ) -> grant::TokenRequest<'a> {
        grant::TokenRequest {
            endpoint: &found.server.token_endpoint,
            audience: found.server.issuer.as_deref().unwrap_or(&found.server.token_endpoint),
            client,
            resource: &found.resource,
            scope,
            dpop: key.map(|key| grant::Dpop { key, nonces: &self.nonces }),
        }
    }

    async fn client_credentials(
        &self,
        found: &discovery::Discovered,
        scope: Option<String>,
        stored: Option<&ClientInfo>,
    ) -> Result<String, String> {
        if self.config.client.client_id.is_none() {
            return Err("client credentials need a client: give --client-id and --client-secret".into());
        }
        let client =
            client::resolve(&self.fetch, &self.config.client, &found.server, "", &["client_credentials"], stored)
                .await?;
        let key = self.dpop_for(&found.server)?;
        let req = self.token_request(found, &client, scope.as_deref(), key.as_deref());
        let tokens = grant::request(&self.fetch, &req, grant::Grant::ClientCredentials).await?;
        self.keep(found, Obtained { client, tokens, asked: scope, grant: "client_credentials", key })
    }

    /// RFC 7523 §2.1: the assertion (the workload's JWT, or an ID-JAG from the enterprise IdP)
    /// for a token, once; a refusal is the login's failure.
    async fn jwt_bearer(
        &self,
        found: &discovery::Discovered,
        scope: Option<String>,
        stored: Option<&ClientInfo>,
        source: &assertion::Source,
    ) -> Result<String, String> {
        let client =
            client::resolve(&self.fetch, &self.config.client, &found.server, "", &[grant::JWT_BEARER], stored).await?;
        if let Some(g) = found.server.grant_types.as_ref().filter(|g| !g.iter().any(|x| x == grant::JWT_BEARER)) {
            // Said, not refused: grant_types_supported is advisory (RFC 8414 §2).
            self.tap.log().push(
                LogKind::Warning,
                &format!(
                    "auth: the authorization server lists grant types {} without the JWT bearer grant; trying it anyway",
                    crate::sanitize::line(&g.join(", "))
                ),
            );
        }
        let issuer = found.server.issuer.as_deref().unwrap_or(&found.server.token_endpoint);
        let target = assertion::Target { issuer, resource: &found.resource, scope: scope.as_deref() };
        let jwt = assertion::obtain(&self.fetch, source, &target).await?;
        let key = self.dpop_for(&found.server)?;
        let req = self.token_request(found, &client, scope.as_deref(), key.as_deref());
        let tokens = grant::request(&self.fetch, &req, grant::Grant::JwtBearer { assertion: &jwt }).await?;
        self.keep(found, Obtained { client, tokens, asked: scope, grant: source.grant_name(), key })
    }

    /// The loopback listener: on the port a stored dynamically registered client was registered
    /// with when it is free (servers compare redirect URIs exactly), else on the port asked for
    /// (or any), and then that client is not reused.
    async fn listen(&self, stored: Option<ClientInfo>) -> Result<(loopback::Listener, Option<ClientInfo>), String> {
        let port_of =
            |c: &ClientInfo| c.redirect_uri.as_deref().and_then(|u| url::Url::parse(u).ok()).and_then(|u| u.port());
        if let Some(c) = stored.as_ref().filter(|c| c.registration == Registration::Dynamic)
            && let Some(port) = port_of(c)
            && (self.config.callback_port == 0 || self.config.callback_port == port)
            && let Ok(l) = loopback::Listener::bind(port).await
        {
            return Ok((l, stored));
        }
        let listener = loopback::Listener::bind(self.config.callback_port).await?;
        let stored = stored.filter(|c| c.registration != Registration::Dynamic);
        Ok((listener, stored))
    }

    /// The challenge's scopes, else the PRM's `scopes_supported`, else none (the parameter is
    /// left out); `--scope` wins over both; a step-up adds the scopes already granted.
    fn scope_for(&self, challenge: &Challenge, found: &discovery::Discovered, had: &[String]) -> Option<String> {
        let mut scopes: Vec<String> = had.to_vec();
        let wanted = match &self.config.scope {
            Some(s) => challenge::split_scopes(s),
            None if challenge.scope.is_some() => challenge.scopes(),
            None => found.resource_scopes.clone().unwrap_or_default(),
        };
        for s in wanted {
            if !scopes.contains(&s) {
                scopes.push(s);
            }
        }
        (!scopes.is_empty()).then(|| scopes.join(" "))
    }

    fn keep(&self, found: &discovery::Discovered, got: Obtained) -> Result<String, String> {
        let Obtained { client, tokens, asked, grant: grant_name, key } = got;
        // A bound token is kept with its key; a bearer one needs none.
        let key = key.filter(|_| tokens.token_type.is_some());
        let now = crate::dirs::now_secs();
        let record = Record {
            server_url: self.server_url.clone(),
            resource: found.resource.clone(),
            issuer: found.server.issuer.clone(),
            token_endpoint: found.server.token_endpoint.clone(),
            client: client.clone(),
            access_token: Some(tokens.access_token.clone()),
            refresh_token: tokens.refresh_token,
            expires_at: tokens.expires_in.map(|s| now.saturating_add(s)),
            scope: tokens.scope.clone().or(asked),
            grant: grant_name.to_string(),
            token_type: tokens.token_type.clone(),
            dpop_key: key.as_ref().map(|k| k.stored().to_string()),
            obtained_at: now,
        };
        self.save(&record);
        *self.record.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(record);
        *self.key.write().unwrap_or_else(std::sync::PoisonError::into_inner) = key;
        let how = how_label(&client, grant_name, tokens.token_type.is_some());
        self.tap.log().push(
            LogKind::Info,
            &format!(
                "auth: logged in ({how}, {})",
                tokens.scope.as_deref().map(|s| format!("scopes {s}")).unwrap_or_else(|| "no scopes named".into())
            ),
        );
        self.notify(Notice::LoggedIn { scope: tokens.scope, how });
        Ok(tokens.access_token)
    }

    fn save(&self, record: &Record) {
        let Some(dir) = &self.store_dir else {
            self.tap.log().push(LogKind::Warning, "auth: no state directory; the token is kept for this session only");
            return;
        };
        let mut record = record.clone();
        if record.client.registration == Registration::PreRegistered {
            record.client.client_secret = None;
        }
        if let Err(e) = store::save(dir, &record) {
            self.tap.log().push(LogKind::Warning, &format!("auth: {e}; the token is kept for this session only"));
        }
    }

    /// Uses the refresh token; a rotated refresh token replaces the old one.
    async fn refresh(&self) -> Result<String, String> {
        let Some(mut record) = self.record() else { return Err("nothing to refresh".into()) };
        let Some(refresh_token) = record.refresh_token.clone() else { return Err("no refresh token".into()) };
        let key = self.key();
        let req = grant::TokenRequest {
            endpoint: &record.token_endpoint,
            audience: record.issuer.as_deref().unwrap_or(&record.token_endpoint),
            client: &record.client,
            resource: &record.resource,
            scope: None,
            dpop: key.as_deref().map(|key| grant::Dpop { key, nonces: &self.nonces }),
        };
        let tokens = grant::request(&self.fetch, &req, grant::Grant::Refresh { refresh_token: &refresh_token })
            .await
            .inspect_err(|_| {
            // A refused refresh token is dead: drop it so the next 401 logs in anew.
            let mut slot = self.record.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(r) = slot.as_mut() {
                r.refresh_token = None;
            }
        })?;
        let now = crate::dirs::now_secs();
        record.access_token = Some(tokens.access_token.clone());
        if let Some(rt) = tokens.refresh_token {
            record.refresh_token = Some(rt);
        }
        record.expires_at = tokens.expires_in.map(|s| now.saturating_add(s));
        if tokens.scope.is_some() {
            record.scope = tokens.scope;
        }
        record.token_type = tokens.token_type;
        record.obtained_at = now;
        self.save(&record);
        *self.record.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(record);
        self.tap.log().push(LogKind::Info, "auth: token refreshed");
        self.notify(Notice::Refreshed);
        Ok(tokens.access_token)
    }
}

/// A token just obtained, and how.
struct Obtained {
    client: ClientInfo,
    tokens: grant::Tokens,
    asked: Option<String>,
    grant: &'static str,
    key: Option<Arc<dpop::Key>>,
}

/// How a login went, in words: the client, the grant when it was not a browser login, and
/// whether the token is bound.
fn how_label(client: &ClientInfo, grant: &str, bound: bool) -> String {
    let grant = match grant {
        "client_credentials" => ", client credentials",
        "jwt_bearer" => ", workload identity JWT",
        "enterprise" => ", enterprise IdP assertion (ID-JAG)",
        _ => "",
    };
    let bound = if bound { ", DPoP-bound token" } else { "" };
    format!("{}{grant}{bound}", client.registration.label())
}

/// The record's DPoP key; a key that cannot be read leaves the bound tokens useless, so they go.
fn stored_key(record: &mut Record, tap: &WireTap) -> Option<Arc<dpop::Key>> {
    match dpop::Key::from_stored(record.dpop_key.as_deref()?) {
        Ok(k) => Some(Arc::new(k)),
        Err(e) => {
            tap.log().push(LogKind::Warning, &format!("auth: {e}; logging in anew"));
            record.access_token = None;
            record.refresh_token = None;
            record.dpop_key = None;
            None
        }
    }
}

fn authorization_url(
    found: &discovery::Discovered,
    client: &ClientInfo,
    redirect_uri: &str,
    state: &str,
    verifier: &str,
    scope: Option<&str>,
) -> Result<String, String> {
    let mut url = url::Url::parse(&found.server.authorization_endpoint)
        .map_err(|e| format!("the authorization endpoint cannot be read: {e}"))?;
    {
        let mut q = url.query_pairs_mut();
        q.append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", state)
            .append_pair("code_challenge", &grant::challenge_of(verifier))
            .append_pair("code_challenge_method", "S256")
            .append_pair("resource", &found.resource);
        if let Some(s) = scope {
            q.append_pair("scope", s);
        }
    }
    Ok(url.to_string())
}

/// The code, once the callback is checked: no error, and the issuer it names (RFC 9207) is the
/// one whose metadata was read.
fn check_callback(cb: &loopback::Callback, server: &discovery::ServerMetadata) -> Result<String, String> {
    if let Some(e) = &cb.error {
        let d = cb.error_description.as_deref().map(|d| format!(": {}", crate::sanitize::line(d))).unwrap_or_default();
        return Err(format!("the authorization server refused the login: {}{d}", crate::sanitize::line(e)));
    }
    match (&cb.iss, &server.issuer) {
        (Some(iss), Some(issuer)) if iss != issuer => {
            return Err(format!(
                "the login came back from issuer {:?}, not {:?}; refused (a mix-up attack?)",
                crate::sanitize::line(iss),
                crate::sanitize::line(issuer)
            ));
        }
        (None, _) if server.iss_parameter_supported => {
            return Err("the authorization server promises an iss parameter and the login came back without one; \
                        refused"
                .into());
        }
        _ => {}
    }
    cb.code.clone().filter(|c| !c.is_empty()).ok_or_else(|| "the login came back without a code".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(issuer: Option<&str>, iss_supported: bool) -> discovery::ServerMetadata {
        discovery::ServerMetadata {
            issuer: issuer.map(str::to_string),
            iss_parameter_supported: iss_supported,
            ..Default::default()
        }
    }

    fn cb(code: Option<&str>, iss: Option<&str>, error: Option<&str>) -> loopback::Callback {
        loopback::Callback {
            code: code.map(str::to_string),
            state: Some("s".into()),
            iss: iss.map(str::to_string),
            error: error.map(str::to_string),
            error_description: None,
        }
    }

    #[test]
    fn the_callback_is_checked() {
        let s = server(Some("http://as"), false);
        assert_eq!(check_callback(&cb(Some("c"), None, None), &s), Ok("c".into()));
        assert_eq!(check_callback(&cb(Some("c"), Some("http://as"), None), &s), Ok("c".into()));
        assert!(check_callback(&cb(Some("c"), Some("http://evil"), None), &s).is_err());
        assert!(check_callback(&cb(Some("c"), None, None), &server(Some("http://as"), true)).is_err());
        assert!(check_callback(&cb(None, None, Some("access_denied")), &s).is_err());
        assert!(check_callback(&cb(None, None, None), &s).is_err());
    }
}
