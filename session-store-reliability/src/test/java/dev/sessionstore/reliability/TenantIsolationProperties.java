package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Random multi-tenant workloads (saves with and without a tenant, appends, forks, deletions of a session or of a
 * whole tenant) checked after every step against a model: no read, listing, deletion or fork ever crosses a tenant
 * (the tenants rule, guarantees 11 and 14 of docs/guarantees.md), and tenants of earlier tries and a bystander tenant
 * stay untouched. Every value the workload writes carries a marker, and no SQL statement the store sent may contain
 * one: values are parameters, never concatenated (guarantee 15). A backend runs these by extending this class with its
 * {@link #database()}.
 */
abstract class TenantIsolationProperties {

  private static final String MARKER = "Qx7";
  private static final int SLOTS = 6;
  private static final int TENANTS = 3;
  private static final AtomicInteger TRIES = new AtomicInteger();

  private final SqlRecorder recorder = new SqlRecorder();
  private final Set<String> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private OpenStores stores;
  private SessionStore store;
  private int workloads;
  private int steps;

  /** The database the properties run on, in a schema of their own. */
  protected abstract Database database();

  @BeforeProperty
  void openStore() {
    System.out.println("TenantIsolationProperties run on: " + database().description());
    stores = new OpenStores(database(), Database.uniqueSchema("tenants"));
    store = stores.store(recorder.wrap(stores.pool("tenants", 4, config -> { })), StoreTuning.defaults());
    store.sessions().save(SessionWrite.of(value("bystander-session")).withTenant(value("bystander")));
    store.events().append(value("bystander-session"), NewEvent.of(value("type")).withId(value("bystander-event")));
  }

  @AfterProperty
  void checkAndClose() throws Exception {
    assertThat(store.sessions().list(SessionQuery.all().tenant(value("bystander"))).items())
        .extracting(Session::id).containsExactly(value("bystander-session"));
    assertThat(store.events().read(value("bystander-session"), EventQuery.all()).items()).extracting(Event::id)
        .containsExactly(value("bystander-event"));
    List<String> statements = recorder.statements();
    List<String> concatenated = statements.stream()
        .filter(sql -> sql.contains(MARKER) || written.stream().anyMatch(sql::contains)).toList();
    System.out.printf("TenantIsolationProperties: %d random workloads, %d steps, each checked against the model;"
        + " %d distinct SQL statements recorded, %d contain a written value%n", workloads, steps, statements.size(),
        concatenated.size());
    assertThat(statements).as("statements recorded").isNotEmpty();
    assertThat(concatenated).as("SQL with a value in its text").isEmpty();
    stores.close();
  }

  @Property(tries = 40)
  void tenantsNeverCross(@ForAll("workloads") List<Step> workload) {
    Model model = new Model(TRIES.incrementAndGet());
    workloads++;
    for (Step step : workload) {
      steps++;
      step.apply(this, model);
      model.check(this);
    }
  }

  @Provide
  Arbitrary<List<Step>> workloads() {
    Arbitrary<Integer> slot = Arbitraries.integers().between(0, SLOTS - 1);
    Arbitrary<Integer> tenant = Arbitraries.integers().between(0, TENANTS - 1);
    Arbitrary<Step> step = Arbitraries.oneOf(
        net.jqwik.api.Combinators.combine(slot, tenant, Arbitraries.of(true, false)).as(Save::new),
        net.jqwik.api.Combinators.combine(slot, Arbitraries.integers().between(1, 4)).as(Append::new),
        slot.map(Fork::new),
        slot.map(Delete::new),
        tenant.map(DeleteTenant::new));
    return step.list().ofMinSize(4).ofMaxSize(20);
  }

  /** {@code name} with the marker: a value no SQL text may contain. */
  private String value(String name) {
    String value = name + "-" + MARKER;
    written.add(value);
    return value;
  }

  /** One step of a workload. */
  sealed interface Step permits Save, Append, Fork, Delete, DeleteTenant {
    void apply(TenantIsolationProperties test, Model model);
  }

  /**
   * Saves the slot's session under its tenant, or a new tenant when it has none; with {@code omitTenant} a known
   * session keeps its tenant (or none).
   */
  record Save(int slot, int tenant, boolean omitTenant) implements Step {
    @Override
    public void apply(TenantIsolationProperties test, Model model) {
      String id = model.slotId(test, slot);
      String tenantName = Objects.requireNonNullElse(model.tenants.get(id), model.tenantName(test, tenant));
      SessionWrite write = SessionWrite.of(id).withMetadata("note", test.value("note-" + model.tryNumber));
      Session saved = test.store.sessions().save(omitTenant ? write : write.withTenant(tenantName));
      if (omitTenant) {
        model.tenants.putIfAbsent(id, null);
      } else {
        model.tenants.put(id, tenantName);
      }
      model.events.putIfAbsent(id, new ArrayList<>());
      assertThat(saved.tenant()).isEqualTo(model.tenants.get(id));
    }
  }

  /** Appends {@code count} events to the slot's session (creating it without a tenant if unknown). */
  record Append(int slot, int count) implements Step {
    @Override
    public void apply(TenantIsolationProperties test, Model model) {
      String id = model.slotId(test, slot);
      List<NewEvent> batch = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String eventId = test.value("e" + model.nextEvent++ + "-" + model.tryNumber);
        batch.add(NewEvent.of(test.value("type"), Json.from(Map.of("text", test.value("payload-" + eventId))))
            .withId(eventId));
      }
      test.store.events().appendAll(id, batch);
      model.tenants.putIfAbsent(id, null);
      model.events.computeIfAbsent(id, key -> new ArrayList<>()).addAll(batch.stream().map(NewEvent::id).toList());
    }
  }

  /** Forks the slot's session at its last event, if it has one. */
  record Fork(int slot) implements Step {
    @Override
    public void apply(TenantIsolationProperties test, Model model) {
      String id = model.slotId(test, slot);
      List<String> events = model.events.get(id);
      if (events == null || events.isEmpty()) {
        return;
      }
      Session fork = test.store.sessions().fork(id, events.size());
      assertThat(fork.tenant()).as("a fork keeps its parent's tenant").isEqualTo(model.tenants.get(id));
      model.tenants.put(fork.id(), model.tenants.get(id));
      model.events.put(fork.id(), new ArrayList<>(events));
    }
  }

  /** Deletes the slot's session. */
  record Delete(int slot) implements Step {
    @Override
    public void apply(TenantIsolationProperties test, Model model) {
      String id = model.slotId(test, slot);
      assertThat(test.store.sessions().delete(id)).isEqualTo(model.tenants.containsKey(id));
      model.tenants.remove(id);
      model.events.remove(id);
    }
  }

  /** Deletes every session of a tenant. */
  record DeleteTenant(int tenant) implements Step {
    @Override
    public void apply(TenantIsolationProperties test, Model model) {
      String tenantName = model.tenantName(test, tenant);
      List<String> owned = model.tenants.entrySet().stream()
          .filter(entry -> tenantName.equals(entry.getValue())).map(Map.Entry::getKey).toList();
      assertThat(test.store.sessions().deleteByTenant(tenantName)).isEqualTo(owned.size());
      owned.forEach(id -> {
        model.tenants.remove(id);
        model.events.remove(id);
      });
    }
  }

  /** What the store must hold for one try: each session's tenant (null for none) and event ids. */
  static final class Model {
    private final int tryNumber;
    private final Map<String, String> tenants = new LinkedHashMap<>();
    private final Map<String, List<String>> events = new HashMap<>();
    private final Set<String> everSeen = new TreeSet<>();
    private int nextEvent;

    Model(int tryNumber) {
      this.tryNumber = tryNumber;
    }

    String slotId(TenantIsolationProperties test, int slot) {
      String id = test.value("s" + slot + "-" + tryNumber);
      everSeen.add(id);
      return id;
    }

    String tenantName(TenantIsolationProperties test, int tenant) {
      return test.value("tenant" + tenant + "-" + tryNumber);
    }

    /** Asserts that listings by tenant, lookups and reads of every session of this try match the model. */
    void check(TenantIsolationProperties test) {
      everSeen.addAll(tenants.keySet());
      for (int t = 0; t < TENANTS; t++) {
        String tenantName = tenantName(test, t);
        List<String> expected = tenants.entrySet().stream()
            .filter(entry -> tenantName.equals(entry.getValue())).map(Map.Entry::getKey).sorted().toList();
        List<Session> listed = test.store.sessions().list(SessionQuery.all().tenant(tenantName)).items();
        assertThat(listed).as("listing of " + tenantName).allMatch(session -> tenantName.equals(session.tenant()));
        assertThat(listed.stream().map(Session::id).sorted().toList()).as("listing of " + tenantName)
            .isEqualTo(expected);
      }
      for (String id : everSeen) {
        assertThat(test.store.sessions().find(id)
            .map(session -> Objects.requireNonNullElse(session.tenant(), "<no tenant>")).orElse("<none>"))
            .as("tenant of " + id).isEqualTo(tenants.containsKey(id)
                ? Objects.requireNonNullElse(tenants.get(id), "<no tenant>") : "<none>");
        assertThat(test.store.events().read(id, EventQuery.all()).items()).extracting(Event::id)
            .as("events of " + id).isEqualTo(events.getOrDefault(id, List.of()));
      }
    }
  }
}
