//! The catalogue in memory. The catalogue (presentations, venues, seat plans, seats, ticket groups,
//! products, site config) changes rarely: `kupa seed` writes it, `kupa catalogue import` merges
//! into it while nodes serve (decision 0049). Every seat lock reads the seat plan, its sections,
//! seats and ticket groups: from memory, that is no database round trip for the rules, only for
//! the claim itself.
//!
//! Each load or import raises a counter in the database (`catalogue_version`). At most once a
//! second a read asks for it, and when it is not the one last seen the cache empties, on every
//! node alike, so an import is served everywhere within about a second. A read that began before
//! an emptying does not put its (maybe older) answer back.
//!
//! Not cached: customers and members (they change), the catalogue-empty check and loading (which
//! empties the cache). Answers of "not found" are not cached, so unknown ids cannot fill memory.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;

use crate::error::StoreResult;
use crate::model::*;
use crate::ports::{CatalogueStore, SeatAddress};

struct Memo<K, V>(RwLock<HashMap<K, V>>);

impl<K: Eq + Hash + Clone, V: Clone> Memo<K, V> {
    fn new() -> Self {
        Memo(RwLock::new(HashMap::new()))
    }

    fn get(&self, k: &K) -> Option<V> {
        self.0
            .read()
            .expect("catalogue cache poisoned")
            .get(k)
            .cloned()
    }

    fn put(&self, k: K, v: V) {
        self.0
            .write()
            .expect("catalogue cache poisoned")
            .insert(k, v);
    }

    fn clear(&self) {
        self.0.write().expect("catalogue cache poisoned").clear();
    }
}

/// Reads through to the store once per key, then answers from memory.
pub struct CachedCatalogue {
    inner: Arc<dyn CatalogueStore>,
    site_config: Memo<(), serde_json::Value>,
    sales_switches: Memo<(), Vec<crate::sales_switches::SalesSwitch>>,
    screening_closures: Memo<(), Vec<(PresentationId, crate::sales_switches::SaleChannel)>>,
    price_changes: Memo<(), crate::prices::PriceChanges>,
    presentation: Memo<PresentationId, PresentationView>,
    features: Memo<(), Vec<(Feature, FeatureCategory)>>,
    feature: Memo<i64, Feature>,
    product: Memo<i64, Product>,
    products_for_location: Memo<i64, Vec<Product>>,
    seatplan: Memo<i64, Seatplan>,
    sections: Memo<i64, Vec<Section>>,
    /// Shared, so a lock's look-up of one seat copies no plan.
    seats: Memo<i64, Arc<Vec<Seat>>>,
    ticket_groups: Memo<Vec<i64>, Vec<(TicketGroup, Vec<Ticket>)>>,
    service_charge: Memo<i64, ServiceCharge>,
    locations: Memo<(), Vec<Location>>,
    /// How often a read asks the store for the catalogue version.
    check_every: Duration,
    checked_at: Mutex<Option<Instant>>,
    /// The version last seen (`i64::MIN` before the first check).
    seen_version: AtomicI64,
    /// Raised by every emptying: a read that began before one does not fill the cache.
    generation: AtomicU64,
}

/// How often, at most, each node asks whether the catalogue changed.
pub const VERSION_CHECK_EVERY: Duration = Duration::from_secs(1);

/// Ticket-group lookups keyed by the id list as asked: a box office has few distinct lists.
const MAX_TICKET_GROUP_KEYS: usize = 4_096;

macro_rules! cached {
    ($self:ident . $memo:ident [$key:expr] or $load:expr) => {{
        $self.check_version().await?;
        if let Some(v) = $self.$memo.get(&$key) {
            return Ok(v);
        }
        let generation = $self.generation.load(Ordering::SeqCst);
        let v = $load.await?;
        if $self.generation.load(Ordering::SeqCst) == generation {
            $self.$memo.put($key, v.clone());
        }
        Ok(v)
    }};
    ($self:ident . $memo:ident [$key:expr] or optional $load:expr) => {{
        $self.check_version().await?;
        if let Some(v) = $self.$memo.get(&$key) {
            return Ok(Some(v));
        }
        let generation = $self.generation.load(Ordering::SeqCst);
        let v = $load.await?;
        if let Some(found) = &v
            && $self.generation.load(Ordering::SeqCst) == generation
        {
            $self.$memo.put($key, found.clone());
        }
        Ok(v)
    }};
}

impl CachedCatalogue {
    pub fn new(inner: Arc<dyn CatalogueStore>) -> CachedCatalogue {
        CachedCatalogue {
            inner,
            site_config: Memo::new(),
            sales_switches: Memo::new(),
            screening_closures: Memo::new(),
            price_changes: Memo::new(),
            presentation: Memo::new(),
            features: Memo::new(),
            feature: Memo::new(),
            product: Memo::new(),
            products_for_location: Memo::new(),
            seatplan: Memo::new(),
            sections: Memo::new(),
            seats: Memo::new(),
            ticket_groups: Memo::new(),
            service_charge: Memo::new(),
            locations: Memo::new(),
            check_every: VERSION_CHECK_EVERY,
            checked_at: Mutex::new(None),
            seen_version: AtomicI64::new(i64::MIN),
            generation: AtomicU64::new(0),
        }
    }

    /// Asks for the catalogue version at most every `every` (tests ask on every read).
    pub fn checking_every(mut self, every: Duration) -> CachedCatalogue {
        self.check_every = every;
        self
    }

    /// Empties the cache when the stored catalogue version is not the one last seen.
    async fn check_version(&self) -> StoreResult<()> {
        {
            let mut at = self.checked_at.lock().expect("catalogue cache poisoned");
            if at.is_some_and(|t| t.elapsed() < self.check_every) {
                return Ok(());
            }
            *at = Some(Instant::now());
        }
        let version = match self.inner.catalogue_version().await {
            Ok(v) => v,
            Err(e) => {
                *self.checked_at.lock().expect("catalogue cache poisoned") = None;
                return Err(e);
            }
        };
        if self.seen_version.swap(version, Ordering::SeqCst) != version {
            self.clear();
        }
        Ok(())
    }

    async fn shared_seats(&self, seatplan_id: i64) -> StoreResult<Arc<Vec<Seat>>> {
        cached!(self.seats[seatplan_id] or async { self.inner.seats(seatplan_id).await.map(Arc::new) })
    }

    /// Empties the cache now: this node changed the catalogue (the programme, decision 0058);
    /// other nodes follow `catalogue_version`.
    pub fn forget_everything(&self) {
        self.clear();
    }

    fn clear(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.site_config.clear();
        self.sales_switches.clear();
        self.screening_closures.clear();
        self.price_changes.clear();
        self.presentation.clear();
        self.features.clear();
        self.feature.clear();
        self.product.clear();
        self.products_for_location.clear();
        self.seatplan.clear();
        self.sections.clear();
        self.seats.clear();
        self.ticket_groups.clear();
        self.service_charge.clear();
        self.locations.clear();
    }
}

#[async_trait]
impl CatalogueStore for CachedCatalogue {
    async fn is_catalogue_empty(&self) -> StoreResult<bool> {
        self.inner.is_catalogue_empty().await
    }

    async fn load_catalogue(&self, data: &CatalogueData) -> StoreResult<()> {
        let r = self.inner.load_catalogue(data).await;
        self.clear();
        r
    }

    async fn site_config(&self) -> StoreResult<Option<serde_json::Value>> {
        cached!(self.site_config[()] or optional self.inner.site_config())
    }

    async fn sales_switches(&self) -> StoreResult<Vec<crate::sales_switches::SalesSwitch>> {
        cached!(self.sales_switches[()] or self.inner.sales_switches())
    }

    async fn screening_closures(
        &self,
    ) -> StoreResult<Vec<(PresentationId, crate::sales_switches::SaleChannel)>> {
        cached!(self.screening_closures[()] or self.inner.screening_closures())
    }

    async fn price_changes(&self) -> StoreResult<crate::prices::PriceChanges> {
        cached!(self.price_changes[()] or self.inner.price_changes())
    }

    async fn presentation(&self, id: PresentationId) -> StoreResult<Option<PresentationView>> {
        cached!(self.presentation[id] or optional self.inner.presentation(id))
    }

    async fn presentations_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<PresentationView>> {
        // Keyed by arbitrary times: not cached (the what's-on pages, not the rush).
        self.inner.presentations_between(from_ms, to_ms).await
    }

    async fn vod_presentations(&self) -> StoreResult<Vec<PresentationView>> {
        // The what's-on pages, not the rush: read through.
        self.inner.vod_presentations().await
    }

    async fn features(&self) -> StoreResult<Vec<(Feature, FeatureCategory)>> {
        cached!(self.features[()] or self.inner.features())
    }

    async fn feature(&self, id: i64) -> StoreResult<Option<Feature>> {
        cached!(self.feature[id] or optional self.inner.feature(id))
    }

    async fn product(&self, id: i64) -> StoreResult<Option<Product>> {
        cached!(self.product[id] or optional self.inner.product(id))
    }

    async fn products_for_location(&self, location_id: i64) -> StoreResult<Vec<Product>> {
        cached!(self.products_for_location[location_id] or self.inner.products_for_location(location_id))
    }

    async fn chain_products(&self) -> StoreResult<Vec<Product>> {
        // Read once per voucher page or cart, not per seat: not worth a memo.
        self.inner.chain_products().await
    }

    async fn seatplan(&self, seatplan_id: i64) -> StoreResult<Option<Seatplan>> {
        cached!(self.seatplan[seatplan_id] or optional self.inner.seatplan(seatplan_id))
    }

    async fn sections(&self, seatplan_id: i64) -> StoreResult<Vec<Section>> {
        cached!(self.sections[seatplan_id] or self.inner.sections(seatplan_id))
    }

    async fn seats(&self, seatplan_id: i64) -> StoreResult<Vec<Seat>> {
        Ok(self.shared_seats(seatplan_id).await?.as_ref().clone())
    }

    async fn seat_with_partners(
        &self,
        seatplan_id: i64,
        at: SeatAddress,
    ) -> StoreResult<Vec<Seat>> {
        Ok(crate::seat_plan::seat_with_partners(
            &self.shared_seats(seatplan_id).await?,
            at,
        ))
    }

    async fn ticket_groups(&self, ids: &[i64]) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>> {
        self.check_version().await?;
        let key = ids.to_vec();
        if let Some(v) = self.ticket_groups.get(&key) {
            return Ok(v);
        }
        let generation = self.generation.load(Ordering::SeqCst);
        let v = self.inner.ticket_groups(ids).await?;
        let full = self.generation.load(Ordering::SeqCst) != generation
            || self
                .ticket_groups
                .0
                .read()
                .expect("catalogue cache poisoned")
                .len()
                >= MAX_TICKET_GROUP_KEYS;
        if !full {
            self.ticket_groups.put(key, v.clone());
        }
        Ok(v)
    }

    async fn service_charge(&self, business_id: i64) -> StoreResult<Option<ServiceCharge>> {
        cached!(self.service_charge[business_id] or optional self.inner.service_charge(business_id))
    }

    async fn mini_site(&self, url: &str) -> StoreResult<Option<MiniSite>> {
        self.inner.mini_site(url).await
    }

    async fn integration(&self, key: &str) -> StoreResult<Option<Integration>> {
        self.inner.integration(key).await
    }

    async fn locations(&self) -> StoreResult<Vec<Location>> {
        cached!(self.locations[()] or self.inner.locations())
    }

    async fn customer_by_mobile(&self, mobile: &str) -> StoreResult<Option<Customer>> {
        self.inner.customer_by_mobile(mobile).await
    }

    // Read on the voucher and donation pages only: not worth the memory.
    async fn system_voucher_classes(
        &self,
    ) -> StoreResult<Vec<crate::vouchers::SystemVoucherClass>> {
        self.inner.system_voucher_classes().await
    }

    async fn donations(&self) -> StoreResult<Vec<crate::vouchers::Donation>> {
        self.inner.donations().await
    }

    async fn memberships(&self) -> StoreResult<Vec<Membership>> {
        self.inner.memberships().await
    }

    async fn seasons(&self) -> StoreResult<Vec<crate::memberships::Season>> {
        self.inner.seasons().await
    }

    async fn members_of_customer(
        &self,
        customer_id: i64,
    ) -> StoreResult<Vec<(Member, Membership)>> {
        self.inner.members_of_customer(customer_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A store that counts how often it is asked for seats and presentations.
    #[derive(Default)]
    struct Counting {
        seats: AtomicUsize,
        presentations: AtomicUsize,
        version: AtomicI64,
    }

    #[async_trait]
    impl CatalogueStore for Counting {
        async fn is_catalogue_empty(&self) -> StoreResult<bool> {
            Ok(false)
        }
        async fn load_catalogue(&self, _: &CatalogueData) -> StoreResult<()> {
            Ok(())
        }
        async fn site_config(&self) -> StoreResult<Option<serde_json::Value>> {
            Ok(None)
        }
        async fn presentation(&self, _: PresentationId) -> StoreResult<Option<PresentationView>> {
            self.presentations.fetch_add(1, Ordering::SeqCst);
            Ok(None)
        }
        async fn presentations_between(
            &self,
            _: i64,
            _: i64,
        ) -> StoreResult<Vec<PresentationView>> {
            Ok(vec![])
        }
        async fn vod_presentations(&self) -> StoreResult<Vec<PresentationView>> {
            Ok(vec![])
        }
        async fn features(&self) -> StoreResult<Vec<(Feature, FeatureCategory)>> {
            Ok(vec![])
        }
        async fn feature(&self, _: i64) -> StoreResult<Option<Feature>> {
            Ok(None)
        }
        async fn product(&self, _: i64) -> StoreResult<Option<Product>> {
            Ok(None)
        }
        async fn products_for_location(&self, _: i64) -> StoreResult<Vec<Product>> {
            Ok(vec![])
        }
        async fn chain_products(&self) -> StoreResult<Vec<Product>> {
            Ok(vec![])
        }
        async fn seatplan(&self, _: i64) -> StoreResult<Option<Seatplan>> {
            Ok(None)
        }
        async fn sections(&self, _: i64) -> StoreResult<Vec<Section>> {
            Ok(vec![])
        }
        async fn seats(&self, id: i64) -> StoreResult<Vec<Seat>> {
            self.seats.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Seat {
                seatplan_id: id,
                ..Default::default()
            }])
        }
        async fn ticket_groups(&self, _: &[i64]) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>> {
            Ok(vec![])
        }
        async fn service_charge(&self, _: i64) -> StoreResult<Option<ServiceCharge>> {
            Ok(None)
        }
        async fn mini_site(&self, _: &str) -> StoreResult<Option<MiniSite>> {
            Ok(None)
        }
        async fn integration(&self, _: &str) -> StoreResult<Option<Integration>> {
            Ok(None)
        }
        async fn locations(&self) -> StoreResult<Vec<Location>> {
            Ok(vec![])
        }
        async fn system_voucher_classes(
            &self,
        ) -> StoreResult<Vec<crate::vouchers::SystemVoucherClass>> {
            Ok(vec![])
        }
        async fn donations(&self) -> StoreResult<Vec<crate::vouchers::Donation>> {
            Ok(vec![])
        }
        async fn memberships(&self) -> StoreResult<Vec<Membership>> {
            Ok(vec![])
        }
        async fn seasons(&self) -> StoreResult<Vec<crate::memberships::Season>> {
            Ok(vec![])
        }
        async fn customer_by_mobile(&self, _: &str) -> StoreResult<Option<Customer>> {
            Ok(None)
        }
        async fn members_of_customer(&self, _: i64) -> StoreResult<Vec<(Member, Membership)>> {
            Ok(vec![])
        }
        async fn catalogue_version(&self) -> StoreResult<i64> {
            Ok(self.version.load(Ordering::SeqCst))
        }
    }

    #[tokio::test]
    async fn another_catalogue_version_empties_the_cache() {
        let store = Arc::new(Counting::default());
        let cache = CachedCatalogue::new(store.clone()).checking_every(Duration::ZERO);
        cache.seats(7).await.unwrap();
        cache.seats(7).await.unwrap();
        assert_eq!(store.seats.load(Ordering::SeqCst), 1, "served from memory");
        store.version.fetch_add(1, Ordering::SeqCst);
        cache.seats(7).await.unwrap();
        cache.seats(7).await.unwrap();
        assert_eq!(store.seats.load(Ordering::SeqCst), 2, "read again once");
        let slow = CachedCatalogue::new(store.clone());
        slow.seats(7).await.unwrap();
        store.version.fetch_add(1, Ordering::SeqCst);
        slow.seats(7).await.unwrap();
        assert_eq!(
            store.seats.load(Ordering::SeqCst),
            3,
            "within a second of the last check the cache is trusted"
        );
    }

    #[tokio::test]
    async fn reads_go_to_the_store_once_per_key_and_misses_every_time() {
        let store = Arc::new(Counting::default());
        let cache = CachedCatalogue::new(store.clone());
        for _ in 0..3 {
            assert_eq!(cache.seats(7).await.unwrap()[0].seatplan_id, 7);
            assert_eq!(cache.seats(8).await.unwrap()[0].seatplan_id, 8);
            assert!(
                cache
                    .presentation(PresentationId(99))
                    .await
                    .unwrap()
                    .is_none()
            );
        }
        assert_eq!(
            store.seats.load(Ordering::SeqCst),
            2,
            "one read per seat plan"
        );
        assert_eq!(
            store.presentations.load(Ordering::SeqCst),
            3,
            "unknown ids are not remembered"
        );
        cache
            .load_catalogue(&CatalogueData::default())
            .await
            .unwrap();
        cache.seats(7).await.unwrap();
        assert_eq!(
            store.seats.load(Ordering::SeqCst),
            3,
            "loading a catalogue forgets the cache"
        );
    }
}
