package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tenants: a session may carry a tenant key; listing filters by it; a later write that omits the tenant keeps it;
 * deleting by tenant removes every session of that tenant with everything it owns and returns the count, and touches
 * nothing else. Requires {@link Capability#TENANTS}.
 *
 * <p>If this fails, check that an upsert without a tenant keeps the stored one (an {@code INSERT ... ON CONFLICT}
 * that sets every column overwrites it with null, and so does an implicit creation path that rebuilds the session
 * row); that a session whose tenant changes leaves its old tenant's listing and deletion (an index or a tenant
 * table updated with the session row, not only written when it is created); that tenant keys compare exactly; and that {@code deleteByTenant} runs the full per-session delete (events,
 * runs, tool calls, summaries, checkpoints, audit) for each session rather than deleting only session rows.
 */
public abstract class TenantContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected TenantContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.TENANTS);
  }

  private String saveInTenant(String tenant) {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session).withTenant(tenant));
    clock.advance(Duration.ofSeconds(1));
    return session;
  }

  private List<String> listed(SessionQuery query) {
    return store.sessions().list(query).items().stream().map(Session::id).collect(Collectors.toList());
  }

  private String tenantOf(String sessionId) {
    return present(store.sessions().find(sessionId), "session %s", sessionId).tenant();
  }

  @Test
  @DisplayName("A session saved with a tenant is stored and returned with it")
  void theTenantIsStored() {
    String session = id("session");

    Session saved = store.sessions().save(SessionWrite.of(session).withTenant("acme"));

    assertThat(saved.tenant()).isEqualTo("acme");
    assertThat(tenantOf(session)).isEqualTo("acme");
  }

  @Test
  @DisplayName("A query by expiry and tenant lists the tenant's expired sessions only")
  void expiresBeforeCombinesWithTheTenant() {
    String expiredHere = saveInTenant("acme");
    String expiredThere = saveInTenant("globex");
    String notExpired = saveInTenant("acme");
    store.sessions().save(SessionWrite.of(expiredHere).withExpiresAt(clock.instant().minusSeconds(1)));
    store.sessions().save(SessionWrite.of(expiredThere).withExpiresAt(clock.instant().minusSeconds(1)));
    store.sessions().save(SessionWrite.of(notExpired).withExpiresAt(clock.instant().plusSeconds(1)));

    assertThat(listed(SessionQuery.all().tenant("acme").expiresBefore(clock.instant())))
        .as("expired sessions of tenant acme").containsExactly(expiredHere);
    assertThat(tenantOf(expiredHere)).as("tenant kept by the expiry's write").isEqualTo("acme");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Listing by tenant returns exactly that tenant's sessions, in creation order")
  void listingFiltersByTenant() {
    String a1 = saveInTenant("acme");
    String g1 = saveInTenant("globex");
    String a2 = saveInTenant("acme");
    store.events().append(id("untenanted"), event(id("e")));
    String a3 = saveInTenant("acme");

    assertThat(listed(SessionQuery.all().tenant("acme"))).containsExactly(a1, a2, a3);
    assertThat(listed(SessionQuery.all().tenant("globex"))).containsExactly(g1);
    assertThat(listed(SessionQuery.all().tenant("initech"))).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Tenant keys are exact: tenants differing in case or whitespace are different tenants")
  void tenantKeysAreExact() {
    String upper = saveInTenant("Acme");
    String lower = saveInTenant("acme");
    String spaced = saveInTenant("acme ");

    assertThat(listed(SessionQuery.all().tenant("acme"))).containsExactly(lower);
    assertThat(store.sessions().deleteByTenant("acme")).isEqualTo(1);
    assertThat(store.sessions().find(upper)).isPresent();
    assertThat(store.sessions().find(spaced)).isPresent();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("The tenant filter combines with the status filter and pages with a cursor")
  void theTenantFilterCombinesAndPages() {
    List<String> acme = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      acme.add(saveInTenant("acme"));
      saveInTenant("globex");
    }
    store.sessions().save(SessionWrite.of(acme.get(1)).withStatus(SessionStatus.ARCHIVED));

    assertThat(listed(SessionQuery.all().tenant("acme").status(SessionStatus.ARCHIVED))).containsExactly(acme.get(1));

    List<String> paged = new ArrayList<>();
    SessionQuery query = SessionQuery.all().tenant("acme").limit(2);
    for (int page = 0; page < 10; page++) {
      SessionPage result = store.sessions().list(query);
      result.items().forEach(session -> paged.add(session.id()));
      if (result.nextCursor().isEmpty()) {
        break;
      }
      query = query.after(result.nextCursor().get());
    }
    assertThat(paged).as("tenant acme paged two at a time").isEqualTo(acme);
  }

  @Test
  @DisplayName("A later save that omits the tenant keeps it")
  void aSaveWithoutTheTenantKeepsIt() {
    String session = saveInTenant("acme");

    store.sessions().save(SessionWrite.of(session).withStatus(SessionStatus.PAUSED).withMetadata("k", "v"));

    assertThat(tenantOf(session)).as("tenant after a save without one").isEqualTo("acme");
    assertThat(listed(SessionQuery.all().tenant("acme"))).containsExactly(session);
  }

  @Test
  @DisplayName("Appends, runs, steps and other writes under the session keep its tenant")
  void implicitWritesKeepTheTenant() {
    String session = saveInTenant("acme");

    store.events().append(session, event(id("e")));
    store.runs().save(RunWrite.of(id("run"), session).withStatus(RunStatus.RUNNING));
    store.commit(Step.builder(session).session(SessionWrite.of(session).withStatus(SessionStatus.COMPLETED))
        .event(event(id("e"))).build());
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(ToolCallWrite.of(id("call"), session, "fetch"));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      store.checkpoints().put(CheckpointKey.of(session, "turn"), new byte[] {1});
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(session, NewModelCall.of(1, "m", json("{}")));
    }

    assertThat(tenantOf(session)).as("tenant after writes that name no tenant").isEqualTo("acme");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("A session whose tenant changes is listed under its new tenant only")
  void aSessionThatChangesTenantIsListedUnderTheNewOneOnly() {
    String session = saveInTenant("acme");

    store.sessions().save(SessionWrite.of(session).withTenant("globex"));

    assertThat(tenantOf(session)).as("tenant after the change").isEqualTo("globex");
    assertThat(listed(SessionQuery.all().tenant("acme"))).as("sessions listed under the old tenant").isEmpty();
    assertThat(listed(SessionQuery.all().tenant("globex"))).as("sessions listed under the new tenant")
        .containsExactly(session);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("A session whose tenant changes is deleted with its new tenant only: deleting the old one leaves it")
  void aSessionThatChangesTenantIsDeletedWithTheNewOneOnly() {
    String session = saveInTenant("acme");
    store.events().append(session, event(id("e")));
    store.sessions().save(SessionWrite.of(session).withTenant("globex"));

    assertThat(store.sessions().deleteByTenant("acme")).as("sessions deleted by the old tenant").isZero();
    assertThat(store.sessions().find(session)).as("session %s after deleting its old tenant", session).isPresent();
    assertThat(store.events().lastSeq(session)).as("lastSeq after deleting its old tenant").isEqualTo(1);
    assertThat(store.sessions().deleteByTenant("globex")).as("sessions deleted by the new tenant").isEqualTo(1);
    assertThat(store.sessions().find(session)).as("session %s after deleting its new tenant", session).isEmpty();
  }

  @Test
  @DisplayName("A session created implicitly can be given a tenant later and is then listed under it")
  void anImplicitSessionCanJoinATenant() {
    String session = id("session");
    store.events().append(session, event(id("e")));

    store.sessions().save(SessionWrite.of(session).withTenant("acme"));

    assertThat(listed(SessionQuery.all().tenant("acme"))).containsExactly(session);
    assertThat(store.events().lastSeq(session)).isEqualTo(1);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("deleteByTenant removes every session of the tenant with everything it owns and returns the count")
  void deleteByTenantRemovesEverythingOfTheTenant() {
    List<OwnedData> doomed = List.of(
        OwnedData.seed(store, id("session"), "acme"),
        OwnedData.seed(store, id("session"), "acme"),
        OwnedData.seed(store, id("session"), "acme"));

    int deleted = store.sessions().deleteByTenant("acme");

    assertThat(deleted).as("sessions deleted by tenant").isEqualTo(3);
    for (OwnedData data : doomed) {
      data.assertGone(store);
    }
    assertThat(listed(SessionQuery.all().tenant("acme"))).isEmpty();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("deleteByTenant leaves other tenants' and untenanted sessions whole")
  void deleteByTenantLeavesOthersAlone() {
    OwnedData.seed(store, id("session"), "acme");
    OwnedData other = OwnedData.seed(store, id("session"), "globex");
    OwnedData untenanted = OwnedData.seed(store, id("session"), null);

    store.sessions().deleteByTenant("acme");

    other.assertPresent(store);
    untenanted.assertPresent(store);
    assertThat(listed(SessionQuery.all())).containsExactly(other.sessionId, untenanted.sessionId);
  }

  @Test
  @DisplayName("deleteByTenant of a tenant with no sessions returns 0, and so does repeating it")
  void deleteByTenantIsIdempotent() {
    saveInTenant("acme");

    assertThat(store.sessions().deleteByTenant("initech")).as("deleting an unknown tenant").isZero();
    assertThat(store.sessions().deleteByTenant("acme")).as("first delete").isEqualTo(1);
    assertThat(store.sessions().deleteByTenant("acme")).as("second delete").isZero();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork carries its parent's tenant and is deleted with the tenant")
  void aForkBelongsToItsParentsTenant() {
    assumeDeclared(Capability.FORKS);
    String parent = saveInTenant("acme");
    store.events().append(parent, event(id("e")));
    Session fork = store.sessions().fork(parent, 1);

    assertThat(fork.tenant()).isEqualTo("acme");
    assertThat(store.sessions().deleteByTenant("acme")).as("sessions deleted: parent and fork").isEqualTo(2);

    assertThat(store.sessions().find(fork.id())).isEmpty();
    assertThat(store.events().lastSeq(fork.id())).isZero();
  }
}
