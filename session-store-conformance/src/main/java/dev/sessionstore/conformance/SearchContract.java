package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.SearchWords;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Search by words (guarantee 21 of docs/guarantees.md): {@code store.search().find(query)} finds the events whose
 * payload's string values hold every term of the query (words, phrases within one value, prefixes), read into words
 * by {@code SearchWords} on every adapter; in one session, a tenant's sessions, sessions with given metadata or the
 * whole store, never another's; narrowed by type, run, agent and time; ranked by score, then newest first, then
 * session id, then seq descending; in pages whose cursors never repeat or skip a hit and belong to their query. What
 * an append returned is found at once from any thread; what truncation, retention or deletion removed is never found
 * after the call returned; a fork finds its parent's events up to its fork point only; an imported archive is
 * searchable. Requires {@link Capability#SEARCH}; the tests that need another capability (tenants, truncation,
 * retention, forks, archives, summaries) skip without it, naming it.
 *
 * <p>If this fails, check: that the adapter hands the candidates its index selected to
 * {@code dev.sessionstore.spi.SearchResults.page} and decides nothing of matching, scoring, order or cursors itself;
 * that its index holds {@code SearchText.words(payload)} (every string value's word forms, never keys or numbers) and
 * answers a prefix with every word starting with it; that the index is written, cut and deleted in the same
 * transaction as the events it indexes (appends, batches and steps, truncation and cut steps, retention, session and
 * tenant deletion, import); that the scope is applied in the index's query (a tenant or metadata read when the
 * search runs, not copied into the index when the event was written, since a session's tenant and metadata change);
 * and that a fork's candidates are its own events plus its parent's up to the fork point, returned with the fork's
 * session id.
 */
public abstract class SearchContract extends Contract {

  /** How long the threads of a concurrency test may take together. */
  private static final Duration RACE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected SearchContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.SEARCH);
  }

  /** Appends a {@code message} whose payload is {@code {"text": text}}, then moves the clock one second on. */
  private Event say(String session, String text) {
    Event event = store.events().append(session, NewEvent.of("message", text(text)).withId(id("e")));
    clock.advance(Duration.ofSeconds(1));
    return event;
  }

  private static Json text(String text) {
    return Json.of("{\"text\":" + quoted(text) + "}");
  }

  private static String quoted(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private String session() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session));
    return session;
  }

  /** The events a step stored, failing the test unless it committed. */
  private List<Event> committed(Step step) {
    StepOutcome outcome = store.commit(step);
    assertThat(outcome).as("outcome of %s", step).isInstanceOf(StepOutcome.Committed.class);
    return ((StepOutcome.Committed) outcome).result().events();
  }

  private SearchPage find(SearchQuery query) {
    return store.search().find(query);
  }

  /** "session#seq" of each hit of the first page, best first: what a failure shows. */
  private List<String> found(SearchQuery query) {
    return refs(find(query).hits());
  }

  private List<String> found(String text) {
    return found(SearchQuery.of(text).limit(Limits.MAX_SEARCH_LIMIT));
  }

  private static List<String> refs(List<SearchHit> hits) {
    return hits.stream().map(hit -> ref(hit.event())).collect(Collectors.toList());
  }

  private static String ref(Event event) {
    return event.sessionId() + "#" + event.seq();
  }

  private static List<String> refs(Event... events) {
    return Arrays.stream(events).map(SearchContract::ref).collect(Collectors.toList());
  }

  /** Every hit of {@code query}, page after page, in the order the pages gave them. */
  private List<String> paged(SearchQuery query) {
    List<String> all = new ArrayList<>();
    SearchQuery next = query;
    for (int page = 0; page < 100; page++) {
      SearchPage result = find(next);
      assertThat(result.hits().size()).as("hits on page %s of %s", page, query.text()).isLessThanOrEqualTo(
          query.limit());
      for (String hit : refs(result.hits())) {
        assertThat(all).as("hits of %s before page %s, which holds %s again", query.text(), page, hit)
            .doesNotContain(hit);
        all.add(hit);
      }
      if (result.nextCursor().isEmpty()) {
        return all;
      }
      assertThat(result.hits()).as("hits of page %s, which has a next cursor", page).isNotEmpty();
      next = next.after(result.nextCursor().get());
    }
    throw new AssertionError("more than 100 pages for " + query.text() + ": " + all);
  }

  private static void refusedNaming(String what, String field, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as(what).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) thrown).field()).as("field named by the refusal of %s", what)
        .isEqualTo(field);
  }

  // ---- words, phrases, prefixes, folding, what is searched ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("A word finds exactly the events holding it; several words find the events holding all of them")
  void wordsFindTheEventsHoldingThemAll() {
    String session = session();
    Event invoice = say(session, "the invoice was sent");
    Event paid = say(session, "the invoice was paid");
    say(session, "a receipt was paid");

    assertThat(found("invoice")).as("hits of invoice").containsExactlyInAnyOrderElementsOf(refs(invoice, paid));
    assertThat(found("invoice paid")).as("hits of invoice paid").containsExactly(ref(paid));
    assertThat(found("refund")).as("hits of a word no event holds").isEmpty();
    assertThat(found("voice")).as("hits of a part of a word").isEmpty();
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A phrase finds its words in a row within one string value, not apart, not reordered, not across "
      + "values")
  void phrasesMatchWordsInARowWithinOneValue() {
    String session = session();
    Event inRow = say(session, "the bill was not paid, sadly");
    say(session, "paid, or not");
    say(session, "not yet, but it was paid");
    store.events().append(session, NewEvent.of("message", json("{\"a\":\"it was not\",\"b\":\"paid\"}"))
        .withId(id("split")));

    assertThat(found("\"not paid\"")).as("hits of the phrase \"not paid\"").containsExactly(ref(inRow));
    assertThat(found("not paid")).as("hits of the words not and paid").hasSize(4);
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A prefix finds every word starting with it, and nothing where a word only holds it inside")
  void prefixesFindWordsStartingWithThem() {
    String session = session();
    Event invoice = say(session, "invoice");
    Event invoicing = say(session, "invoicing runs monthly");
    say(session, "revoicing a song");
    say(session, "invo");

    assertThat(found("invoic*")).as("hits of invoic*").containsExactlyInAnyOrderElementsOf(refs(invoice, invoicing));
    assertThat(found("invoicing*")).as("hits of a whole word as a prefix").containsExactly(ref(invoicing));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Case and compatibility forms fold: upper case, full-width letters and ligatures find the same word")
  void caseAndCompatibilityFormsFold() {
    String session = session();
    Event upper = say(session, "INVOICE overdue");
    Event wide = say(session, "ｉｎｖｏｉｃｅ sent");
    Event ligature = say(session, "the ﬁle is attached");

    assertThat(found("Invoice")).as("hits of Invoice").containsExactlyInAnyOrderElementsOf(refs(upper, wide));
    assertThat(found("ＩＮＶＯＩＣＥ")).as("hits of a full-width INVOICE")
        .containsExactlyInAnyOrderElementsOf(refs(upper, wide));
    assertThat(found("FILE")).as("hits of FILE against a ligature").containsExactly(ref(ligature));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Every JSON string value of the payload is searched, at any depth; keys, numbers, booleans and the "
      + "event's type, agent and run are not")
  void everyStringValueIsSearchedAndNothingElse() {
    String session = session();
    Event nested = store.events().append(session, NewEvent.of("tool_result", json(
        "{\"secretkey\":{\"list\":[1,\"deep\",{\"x\":[\"deeper\"]}]},\"amount\":4242,\"ok\":true,\"n\":null}"))
        .withId(id("e")).withAgentId("planner").withRunId("runword"));

    assertThat(found("deep")).as("hits of a string in an array").containsExactly(ref(nested));
    assertThat(found("deeper")).as("hits of a string nested in an array's object").containsExactly(ref(nested));
    assertThat(found("secretkey")).as("hits of a key").isEmpty();
    assertThat(found("list")).as("hits of a nested key").isEmpty();
    assertThat(found("4242")).as("hits of a number").isEmpty();
    assertThat(found("true")).as("hits of a boolean").isEmpty();
    assertThat(found("null")).as("hits of a null").isEmpty();
    assertThat(found("tool_result")).as("hits of the event's type").isEmpty();
    assertThat(found("planner")).as("hits of the event's agent").isEmpty();
    assertThat(found("runword")).as("hits of the event's run").isEmpty();
  }

  // ---- scope ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("A session's search finds only that session's events; an unknown session finds nothing; unscoped "
      + "finds every session's")
  void aSessionScopeFindsOnlyThatSession() {
    String first = session();
    String second = session();
    Event mine = say(first, "shared word apple");
    Event theirs = say(second, "shared word apple");

    assertThat(found(SearchQuery.of("apple").session(first))).as("hits in %s", first).containsExactly(ref(mine));
    assertThat(found(SearchQuery.of("apple").session(second))).as("hits in %s", second).containsExactly(ref(theirs));
    assertThat(found(SearchQuery.of("apple").session(id("unknown")))).as("hits in an unknown session").isEmpty();
    assertThat(found("apple")).as("hits store-wide").containsExactlyInAnyOrderElementsOf(refs(mine, theirs));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A tenant's search never returns another tenant's events, nor an untenanted session's")
  void aTenantScopeNeverReturnsAnotherTenantsEvents() {
    assumeDeclared(Capability.TENANTS);
    String acme = id("acme");
    store.sessions().save(SessionWrite.of(acme).withTenant("acme"));
    String acme2 = id("acme");
    store.sessions().save(SessionWrite.of(acme2).withTenant("acme"));
    String globex = id("globex");
    store.sessions().save(SessionWrite.of(globex).withTenant("globex"));
    String none = session();
    Event a1 = say(acme, "quarterly invoice");
    say(globex, "quarterly invoice");
    Event a2 = say(acme2, "quarterly invoice");
    say(none, "quarterly invoice");

    assertThat(found(SearchQuery.of("invoice").tenant("acme"))).as("hits of tenant acme")
        .containsExactly(ref(a2), ref(a1));
    assertThat(paged(SearchQuery.of("quarterly").tenant("acme").limit(1))).as("tenant acme, one hit a page")
        .containsExactly(ref(a2), ref(a1));
    assertThat(found(SearchQuery.of("invoice").tenant("Acme"))).as("hits of tenant Acme (keys are exact)").isEmpty();
    assertThat(found(SearchQuery.of("invoice").tenant("initech"))).as("hits of a tenant without sessions").isEmpty();
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A session moved to another tenant is searched in its new tenant only, events written before included")
  void aSessionMovedToAnotherTenantIsSearchedThere() {
    assumeDeclared(Capability.TENANTS);
    String moved = id("session");
    store.sessions().save(SessionWrite.of(moved).withTenant("acme"));
    String stays = id("session");
    store.sessions().save(SessionWrite.of(stays).withTenant("globex"));
    Event before = say(moved, "contract renewal");
    Event theirs = say(stays, "contract renewal");

    store.sessions().save(SessionWrite.of(moved).withTenant("globex"));

    assertThat(found(SearchQuery.of("renewal").tenant("acme"))).as("hits of acme after its session moved to globex")
        .isEmpty();
    assertThat(found(SearchQuery.of("renewal").tenant("globex"))).as("hits of globex")
        .containsExactly(ref(theirs), ref(before));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A metadata scope finds only sessions holding every pair, read as the metadata is at search time")
  void aMetadataScopeFindsOnlySessionsHoldingEveryPair() {
    String alice = id("session");
    store.sessions().save(SessionWrite.of(alice).withMetadata("user", "alice").withMetadata("app", "mail"));
    String aliceChat = id("session");
    store.sessions().save(SessionWrite.of(aliceChat).withMetadata("user", "alice").withMetadata("app", "chat"));
    String bob = id("session");
    store.sessions().save(SessionWrite.of(bob).withMetadata("user", "bob").withMetadata("app", "mail"));
    Event mail = say(alice, "lunch on friday");
    Event chat = say(aliceChat, "lunch on friday");
    say(bob, "lunch on friday");

    assertThat(found(SearchQuery.of("lunch").sessionMetadata("user", "alice"))).as("hits of user=alice")
        .containsExactly(ref(chat), ref(mail));
    assertThat(found(SearchQuery.of("lunch").sessionMetadata("user", "alice").sessionMetadata("app", "mail")))
        .as("hits of user=alice, app=mail").containsExactly(ref(mail));
    assertThat(found(SearchQuery.of("lunch").sessionMetadata("user", "carol"))).as("hits of user=carol").isEmpty();

    store.sessions().mergeMetadata(bob, Map.of("user", "alice"));
    assertThat(found(SearchQuery.of("lunch").sessionMetadata("user", "alice").sessionMetadata("app", "mail")))
        .as("hits of user=alice, app=mail after bob's session was given to alice").hasSize(2);
  }

  // ---- filters ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("Filters narrow the hits: any of the types, the run, the agent, since inclusive and until exclusive")
  void filtersNarrowTheHits() {
    String session = session();
    Instant start = clock.instant();
    Event message = store.events().append(session, NewEvent.of("message", text("budget")).withId(id("e"))
        .withRunId("r1").withAgentId("writer"));
    clock.advance(Duration.ofSeconds(10));
    Instant middle = clock.instant();
    Event note = store.events().append(session, NewEvent.of("note", text("budget")).withId(id("e"))
        .withRunId("r2").withAgentId("critic"));
    clock.advance(Duration.ofSeconds(10));
    Event tool = store.events().append(session, NewEvent.of("tool", text("budget")).withId(id("e"))
        .withRunId("r1").withAgentId("critic"));

    SearchQuery budget = SearchQuery.of("budget");
    assertThat(found(budget.types("message", "tool"))).as("types message, tool")
        .containsExactly(ref(tool), ref(message));
    assertThat(found(budget.types("other"))).as("type other").isEmpty();
    assertThat(found(budget.runId("r1"))).as("run r1").containsExactly(ref(tool), ref(message));
    assertThat(found(budget.agentId("critic"))).as("agent critic").containsExactly(ref(tool), ref(note));
    assertThat(found(budget.agentId("critic").runId("r2"))).as("agent critic, run r2").containsExactly(ref(note));
    assertThat(found(budget.since(middle))).as("since the second event's instant").containsExactly(ref(tool),
        ref(note));
    assertThat(found(budget.until(middle))).as("until the second event's instant").containsExactly(ref(message));
    assertThat(found(budget.since(start).until(start.plusSeconds(1)))).as("the first second")
        .containsExactly(ref(message));
  }

  // ---- score and order ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("Hits rank by score (every occurrence of every term), then newest first, then session id, then seq "
      + "descending")
  void hitsRankByScoreThenNewestThenSessionThenSeq() {
    String b = "b-" + id("session");
    String a = "a-" + id("session");
    Event oldTwice = say(b, "pear and pear again");
    Event newer = say(b, "one pear");
    Event newest = say(a, "pear");
    Event sameInstantB1 = store.events().append(b, NewEvent.of("message", text("pear")).withId(id("e")));
    Event sameInstantB2 = store.events().append(b, NewEvent.of("message", text("pear")).withId(id("e")));
    Event sameInstantA = store.events().append(a, NewEvent.of("message", text("pear")).withId(id("e")));

    List<SearchHit> hits = find(SearchQuery.of("pear")).hits();

    assertThat(refs(hits)).as("order of the hits of pear").containsExactly(ref(oldTwice), ref(sameInstantA),
        ref(sameInstantB2), ref(sameInstantB1), ref(newest), ref(newer));
    assertThat(hits.get(0).score()).as("score of an event holding pear twice").isEqualTo(2);
    assertThat(hits.subList(1, hits.size())).extracting(SearchHit::score).as("scores of the others")
        .containsOnly(1);
    assertThat(find(SearchQuery.of("pear again")).hits()).extracting(SearchHit::score)
        .as("score of pear again: each term's occurrences summed").containsExactly(3);
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A limit keeps the best hits: the highest score, even when it is the oldest")
  void aLimitKeepsTheBestHits() {
    String session = session();
    Event best = say(session, "kiwi kiwi kiwi");
    for (int i = 0; i < 4; i++) {
      say(session, "kiwi " + i);
    }
    Event second = say(session, "kiwi and kiwi");

    assertThat(found(SearchQuery.of("kiwi").limit(1))).as("the one best hit of kiwi").containsExactly(ref(best));
    assertThat(found(SearchQuery.of("kiwi").limit(2))).as("the two best hits of kiwi")
        .containsExactly(ref(best), ref(second));
  }

  // ---- paging ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("Pages continued by their cursors give every hit once, in order, whatever the page size")
  void pagesNeverRepeatOrSkip() {
    String first = session();
    String second = session();
    for (int i = 0; i < 4; i++) {
      say(first, i % 2 == 0 ? "plum plum" : "plum");
      say(second, "plum " + i);
    }
    List<String> whole = found(SearchQuery.of("plum"));
    assertThat(whole).as("hits of plum on one page").hasSize(8).doesNotHaveDuplicates();

    for (int size = 1; size <= 3; size++) {
      assertThat(paged(SearchQuery.of("plum").limit(size))).as("hits of plum paged %s at a time", size)
          .isEqualTo(whole);
    }
    assertThat(find(SearchQuery.of("plum").limit(8)).nextCursor()).as("next cursor of a page holding every hit")
        .isEmpty();
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Pages never repeat or skip hits whose score and timestamp are all equal, within and across sessions")
  void pagesNeverRepeatOrSkipEqualHits() {
    List<String> sessions = List.of(session(), session(), session());
    List<String> expected = new ArrayList<>();
    for (String session : sessions) {
      store.events().appendAll(session, IntStream.range(0, 3)
          .mapToObj(i -> NewEvent.of("message", text("fig")).withId(id("e"))).toList())
          .forEach(event -> expected.add(ref(event)));
    }

    List<String> whole = found(SearchQuery.of("fig"));
    assertThat(whole).as("hits of fig on one page").containsExactlyInAnyOrderElementsOf(expected);
    for (int size = 1; size <= 4; size++) {
      assertThat(paged(SearchQuery.of("fig").limit(size))).as("hits of fig paged %s at a time", size)
          .isEqualTo(whole);
    }
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Paging goes on past appends made between pages: every hit that matched throughout is found once")
  void pagingSurvivesAppendsBetweenPages() {
    String session = session();
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      before.add(ref(say(session, "lime")));
    }
    List<String> seen = new ArrayList<>();
    SearchQuery query = SearchQuery.of("lime").limit(2);
    for (int page = 0; page < 20; page++) {
      SearchPage result = find(query);
      seen.addAll(refs(result.hits()));
      say(session, "lime again");
      say(session, "lime");
      if (result.nextCursor().isEmpty()) {
        break;
      }
      query = query.after(result.nextCursor().get());
    }

    List<String> newestFirst = new ArrayList<>(before);
    Collections.reverse(newestFirst);
    assertThat(seen).as("hits seen while appending between pages (the new ones rank above the cursor)")
        .isEqualTo(newestFirst);
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A cursor is refused, naming cursor, by a query with other terms, scope or filters, or if it was "
      + "never handed out; the same query with another limit takes it")
  void aCursorOfAnotherQueryIsRefused() {
    String session = session();
    for (int i = 0; i < 3; i++) {
      say(session, "grape melon");
    }
    String cursor = present(find(SearchQuery.of("grape").limit(1)).nextCursor(), "next cursor of grape");

    refusedNaming("grape's cursor on melon", "cursor", () -> find(SearchQuery.of("melon").limit(1).after(cursor)));
    refusedNaming("grape's cursor on grape in one session", "cursor",
        () -> find(SearchQuery.of("grape").session(session).limit(1).after(cursor)));
    refusedNaming("grape's cursor on grape of type note", "cursor",
        () -> find(SearchQuery.of("grape").types("note").limit(1).after(cursor)));
    refusedNaming("a cursor never handed out", "cursor", () -> find(SearchQuery.of("grape").after("bm90LWEtY3Vyc29y")));
    assertThat(find(SearchQuery.of("grape").limit(5).after(cursor)).hits()).as("grape after its cursor, limit 5")
        .hasSize(2);
  }

  // ---- read-after-write, removal, forks, import ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("What an append on another thread returned is found by the next search on this one")
  void readAfterWriteAcrossThreads() throws Exception {
    String session = session();
    for (int i = 0; i < 10; i++) {
      String word = "word" + i;
      Event appended = CompletableFuture.supplyAsync(() -> store.events().append(session,
          NewEvent.of("message", text(word)).withId(id("e")))).get(RACE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      assertThat(found(word)).as("hits of %s right after its append returned on another thread", word)
          .containsExactly(ref(appended));
    }
    Event batch = store.events().appendAll(session, List.of(NewEvent.of("message", text("batched")).withId(id("e"))))
        .get(0);
    Event stepped = committed(Step.builder(session).event(NewEvent.of("message", text("stepped")).withId(id("e")))
        .build()).get(0);
    assertThat(found("batched")).as("hits of a batch's event").containsExactly(ref(batch));
    assertThat(found("stepped")).as("hits of a step's event").containsExactly(ref(stepped));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Truncation removes the cut events from the results in the same call; earlier events stay found")
  void truncationRemovesTheCutEvents() {
    assumeDeclared(Capability.TRUNCATION);
    String session = session();
    Event kept = say(session, "draft one");
    say(session, "draft two");
    say(session, "draft three");

    store.events().truncate(session, 2);

    assertThat(found("draft")).as("hits of draft after truncating at 2").containsExactly(ref(kept));
    assertThat(found("two")).as("hits of a cut event's word").isEmpty();
    Event again = say(session, "draft four");
    assertThat(found("draft")).as("hits after appending at the cut seq").containsExactly(ref(again), ref(kept));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A step that cuts the log and appends: the cut events' words are gone, the new events' found")
  void aCuttingStepReplacesTheCutEvents() {
    assumeDeclared(Capability.TRUNCATION);
    String session = session();
    Event kept = say(session, "answer first");
    say(session, "answer wrong");

    Event edited = committed(Step.builder(session).truncateFrom(2)
        .event(NewEvent.of("message", text("answer right")).withId(id("e"))).build()).get(0);

    assertThat(found("wrong")).as("hits of the cut event's word").isEmpty();
    assertThat(found("answer")).as("hits of answer after the edit").containsExactly(ref(edited), ref(kept));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Deleting a session removes its events from the results; another session's stay")
  void deletionRemovesTheSessionsEvents() {
    String gone = session();
    String stays = session();
    say(gone, "olive branch");
    Event kept = say(stays, "olive oil");

    store.sessions().delete(gone);

    assertThat(found("olive")).as("hits of olive after deleting %s", gone).containsExactly(ref(kept));
    assertThat(found(SearchQuery.of("branch").session(gone))).as("hits in the deleted session").isEmpty();
    say(gone, "olive tree");
    assertThat(found("branch")).as("hits of the deleted event's word once the id is used again").isEmpty();
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Deleting a tenant removes its sessions' events from the results")
  void tenantDeletionRemovesItsEvents() {
    assumeDeclared(Capability.TENANTS);
    String acme = id("session");
    store.sessions().save(SessionWrite.of(acme).withTenant("acme"));
    String globex = id("session");
    store.sessions().save(SessionWrite.of(globex).withTenant("globex"));
    say(acme, "cherry");
    Event kept = say(globex, "cherry");

    store.sessions().deleteByTenant("acme");

    assertThat(found("cherry")).as("hits after deleting tenant acme").containsExactly(ref(kept));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Retention removes what it deletes from the results: idle sessions, and cut chapters with summaries")
  void retentionRemovesWhatItDeletes() {
    assumeDeclared(Capability.RETENTION);
    String idle = session();
    say(idle, "mango idle");
    clock.advance(Duration.ofDays(2));
    String active = session();
    Event kept = say(active, "mango active");

    store.retention().apply(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(1)).build());

    assertThat(found("mango")).as("hits after deleting idle sessions").containsExactly(ref(kept));
    if (store.supports(Capability.SUMMARIES)) {
      String chaptered = session();
      for (int i = 1; i <= 5; i++) {
        say(chaptered, "papaya " + i);
      }
      store.summaries().put(chaptered, NewSummary.of(1, 3, json("{\"covers\":\"papaya\"}")));

      store.retention().apply(RetentionPolicy.builder().keepEventsPerSession(2).build());

      assertThat(found("papaya")).as("hits after cutting the chapter 1..3").hasSize(2);
      assertThat(found("2")).as("hits of a cut event's word").isEmpty();
    }
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A fork finds its parent's events up to the fork point, with its own session id, and its own later "
      + "events; none the parent appended after the fork")
  void aForkFindsItsParentsEventsUpToTheForkPoint() {
    assumeDeclared(Capability.FORKS);
    String parent = session();
    say(parent, "banana one");
    say(parent, "banana two");
    say(parent, "banana three");
    String fork = id("fork");
    store.sessions().fork(parent, 2, fork);
    Event own = say(fork, "banana forked");
    Event later = say(parent, "banana later");

    assertThat(found(SearchQuery.of("banana").session(fork))).as("hits of banana in the fork")
        .containsExactly(ref(own), fork + "#2", fork + "#1");
    assertThat(find(SearchQuery.of("two").session(fork)).hits()).extracting(hit -> hit.event().payload())
        .as("payload of the shared event found in the fork").containsExactly(text("banana two"));
    assertThat(found(SearchQuery.of("three").session(fork))).as("hits of the parent's event past the fork point")
        .isEmpty();
    assertThat(found(SearchQuery.of("later").session(fork))).as("hits of the parent's later append in the fork")
        .isEmpty();
    assertThat(found(SearchQuery.of("forked").session(parent))).as("hits of the fork's own event in the parent")
        .isEmpty();
    assertThat(found(SearchQuery.of("banana").session(parent))).as("hits of banana in the parent").hasSize(4)
        .contains(ref(later));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("A store-wide search finds a shared event once per session showing it, and a parent's event past the "
      + "fork point only in the parent")
  void aStoreWideSearchSeesForksAsTheyShow() {
    assumeDeclared(Capability.FORKS);
    String parent = id("parent");
    Event shared = say(parent, "walnut shared");
    Event past = say(parent, "walnut past");
    String fork = id("fork");
    store.sessions().fork(parent, 1, fork);
    Event later = say(parent, "walnut later");

    assertThat(found("shared")).as("hits of the shared event store-wide")
        .containsExactlyInAnyOrder(ref(shared), fork + "#1");
    assertThat(found("past")).as("hits of the parent's event past the fork point").containsExactly(ref(past));
    assertThat(found("later")).as("hits of the parent's later append").containsExactly(ref(later));
    store.sessions().delete(parent);
    assertThat(found("walnut")).as("hits after deleting the parent").containsExactly(fork + "#1");
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("An imported archive is searchable as the exported session was, in this store and in another one")
  void anImportedArchiveIsSearchable() {
    assumeDeclared(Capability.ARCHIVES);
    String session = session();
    say(session, "archived quince");
    say(session, "another quince");
    List<SearchHit> exportedHits = find(SearchQuery.of("quince")).hits();
    SessionArchive archive = present(store.archives().export(session), "export of %s", session);

    store.sessions().delete(session);
    assertThat(found("quince")).as("hits after deleting the exported session").isEmpty();
    store.archives().importSession(archive);
    assertThat(find(SearchQuery.of("quince")).hits()).as("hits after importing it again").isEqualTo(exportedHits);

    try (SessionStore other = otherStore()) {
      other.archives().importSession(archive);
      assertThat(other.search().find(SearchQuery.of("quince")).hits()).as("hits in another store after the import")
          .isEqualTo(exportedHits);
    }
  }

  // ---- excerpts ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("The excerpt is the first value holding a match, cut around it at word boundaries; highlights cover "
      + "the matched words as written")
  void excerptsAndHighlightsPointAtTheMatches() {
    String session = session();
    String filler = "lorem ipsum dolor sit amet ".repeat(20);
    String body = filler + "the Invoice was NOT paid yet, " + filler;
    store.events().append(session, NewEvent.of("message", json("{\"title\":\"no match here\",\"body\":"
        + quoted(body) + ",\"tail\":\"invoice again\"}")).withId(id("e")));

    SearchHit hit = find(SearchQuery.of("invoice \"not paid\"")).hits().get(0);

    assertThat(hit.excerpt().length()).as("excerpt length").isLessThanOrEqualTo(SearchHit.EXCERPT_LENGTH);
    assertThat(hit.excerpt()).as("excerpt").contains("the Invoice was NOT paid yet");
    int start = body.indexOf(hit.excerpt());
    assertThat(start).as("where the excerpt %s lies in the body", hit.excerpt()).isNotNegative();
    int end = start + hit.excerpt().length();
    assertThat(start == 0 || !SearchWords.isWordChar(body.charAt(start - 1))
        || !SearchWords.isWordChar(body.charAt(start))).as("excerpt %s starts at a word boundary", hit.excerpt())
        .isTrue();
    assertThat(end == body.length() || !SearchWords.isWordChar(body.charAt(end))
        || !SearchWords.isWordChar(body.charAt(end - 1))).as("excerpt %s ends at a word boundary", hit.excerpt())
        .isTrue();
    assertThat(hit.highlights()).extracting(range -> hit.excerpt().substring(range.start(), range.end()))
        .as("highlighted text").containsExactly("Invoice", "NOT paid");
    assertThat(hit.score()).as("score: invoice twice, the phrase once").isEqualTo(3);
  }

  // ---- bad input ----

  @Test
  @DisplayName("Bad queries are refused naming the field: no words, too many terms, a limit out of bounds, a null "
      + "query")
  void badQueriesAreRefusedNamingTheField() {
    refusedNaming("a query of punctuation only", "text", () -> SearchQuery.of(" ,;- !? "));
    refusedNaming("an empty query", "text", () -> SearchQuery.of(""));
    String tooMany = IntStream.rangeClosed(0, Limits.MAX_SEARCH_TERMS).mapToObj(i -> "w" + i)
        .collect(Collectors.joining(" "));
    refusedNaming("a query of " + (Limits.MAX_SEARCH_TERMS + 1) + " terms", "terms",
        () -> SearchQuery.of(tooMany));
    refusedNaming("limit 0", "limit", () -> SearchQuery.of("word").limit(0));
    refusedNaming("limit above the most", "limit",
        () -> SearchQuery.of("word").limit(Limits.MAX_SEARCH_LIMIT + 1));
    refusedNaming("a null query", "query", () -> store.search().find(null));
    refusedNaming("a term that is not a word form", "words", () -> SearchTerm.word("Two Words"));
    assertThat(find(SearchQuery.of("word").limit(Limits.MAX_SEARCH_LIMIT)).hits()).as("hits after the refusals")
        .isEmpty();
  }

  // ---- concurrency ----

  @Test
  @Tag("guarantee-21")
  @DisplayName("Threads appending and searching at once: every search returns stored events only, and finally every "
      + "append is found")
  void threadsAppendAndSearchAtOnce() {
    int writers = 2;
    int perWriter = 30;
    List<String> sessions = List.of(session(), session());
    List<List<String>> appended = Race.run(writers + 2, RACE_TIMEOUT, thread -> {
      List<String> mine = new ArrayList<>();
      for (int i = 0; i < perWriter; i++) {
        if (thread < writers) {
          mine.add(ref(store.events().append(sessions.get(thread), NewEvent.of("message", text("racing " + i))
              .withId("t" + thread + "-" + i))));
        } else {
          for (SearchHit hit : find(SearchQuery.of("racing").limit(Limits.MAX_SEARCH_LIMIT)).hits()) {
            assertThat(store.events().find(hit.event().sessionId(), hit.event().id())).as("stored event of hit %s",
                ref(hit.event())).contains(hit.event());
          }
        }
      }
      return mine;
    });

    List<String> all = appended.stream().flatMap(List::stream).toList();
    assertThat(paged(SearchQuery.of("racing").limit(Limits.MAX_SEARCH_LIMIT))).as("hits of racing after the race")
        .containsExactlyInAnyOrderElementsOf(all);
  }
}
