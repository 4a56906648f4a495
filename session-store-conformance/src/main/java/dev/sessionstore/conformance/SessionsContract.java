package dev.sessionstore.conformance;

import dev.sessionstore.NotFoundException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Sessions: upsert (guarantee 3 of docs/guarantees.md), defaults, metadata merge, byte-exact lookup by id and name,
 * name uniqueness, listing with filters, limit, cursor and offset (guarantee 13), eager resumption, deletion and
 * timestamps.
 *
 * <p>Listing order is creation time, then id; the kit creates sessions at distinct clock instants where the order
 * matters and at one instant where the id tie-break matters.
 *
 * <p>If this fails, check: that {@code save} merges a write into the stored row instead of replacing it (omitted
 * fields keep their values, metadata keys mapped to {@code null} are removed); that lookups compare ids and names
 * byte for byte (no case-insensitive collation, trimming or Unicode normalization in the backend); that the name
 * uniqueness check and the write happen in one transaction; and that the listing cursor encodes both creation time
 * and id and that the next cursor is omitted when the page reached the last match.
 */
public abstract class SessionsContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected SessionsContract(SessionStoreConformance kit) {
    super(kit);
  }

  private Sessions sessions() {
    return store.sessions();
  }

  private List<String> listIds(SessionQuery query) {
    return sessions().list(query).items().stream().map(Session::id).collect(Collectors.toList());
  }

  /** Saves sessions with these ids one clock second apart, so their creation order is the argument order. */
  private void createInOrder(String... ids) {
    for (String id : ids) {
      sessions().save(SessionWrite.of(id));
      clock.advance(Duration.ofSeconds(1));
    }
  }

  // ---------------------------------------------------------------- upsert, defaults, merge

  @Test
  @Tag("guarantee-3")
  @DisplayName("Saving the same write twice leaves one session")
  void savingTheSameWriteTwiceLeavesOneSession() {
    SessionWrite write = SessionWrite.of(id("s")).withName("twice").withAgentId("agent-1");

    Session first = sessions().save(write);
    Session second = sessions().save(write);

    assertThat(sessions().list(SessionQuery.all()).items()).as("sessions after two saves of one write")
        .containsExactly(second);
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.createdAt()).isEqualTo(first.createdAt());
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("Save returns the session as stored, and find returns the same session")
  void saveReturnsTheSessionAsStored() {
    String id = id("s");
    Session saved = sessions().save(SessionWrite.of(id)
        .withName("support chat")
        .withAgentId("agent-7")
        .withStatus(SessionStatus.PAUSED)
        .withSettings(json("{\"model\":\"m-1\",\"temperature\":0.2}"))
        .withMetadata(Map.of("channel", "web", "locale", "de-CH")));

    assertThat(saved.id()).isEqualTo(id);
    assertThat(saved.name()).isEqualTo("support chat");
    assertThat(saved.agentId()).isEqualTo("agent-7");
    assertThat(saved.status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(saved.settings()).isEqualTo(json("{\"model\":\"m-1\",\"temperature\":0.2}"));
    assertThat(saved.metadata()).isEqualTo(Map.of("channel", "web", "locale", "de-CH"));
    assertThat(sessions().find(id)).as("find after save").contains(saved);
  }

  @Test
  @DisplayName("A new session takes the defaults: active, settings {}, no metadata, name, tenant or agent")
  void newSessionTakesTheDefaults() {
    String id = id("s");

    Session saved = sessions().save(SessionWrite.of(id));

    assertThat(saved.status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(saved.settings()).isEqualTo(Json.emptyObject());
    assertThat(saved.metadata()).isEmpty();
    assertThat(saved.name()).isNull();
    assertThat(saved.tenant()).isNull();
    assertThat(saved.agentId()).isNull();
    assertThat(saved.forkedFrom()).isNull();
    assertThat(saved.createdAt()).isEqualTo(TestClock.START);
    assertThat(saved.updatedAt()).isEqualTo(TestClock.START);
    assertThat(sessions().find(id)).contains(saved);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Fields a write leaves out keep their stored values")
  void omittedFieldsKeepTheirStoredValues() {
    String id = id("s");
    sessions().save(SessionWrite.of(id)
        .withName("keep-me")
        .withAgentId("agent-1")
        .withSettings(json("{\"model\":\"m-1\"}"))
        .withMetadata("k", "v"));

    Session updated = sessions().save(SessionWrite.of(id).withStatus(SessionStatus.COMPLETED));

    assertThat(updated.status()).isEqualTo(SessionStatus.COMPLETED);
    assertThat(updated.name()).as("name after a write without name").isEqualTo("keep-me");
    assertThat(updated.agentId()).as("agent after a write without agent").isEqualTo("agent-1");
    assertThat(updated.settings()).as("settings after a write without settings").isEqualTo(json("{\"model\":\"m-1\"}"));
    assertThat(updated.metadata()).as("metadata after a write without metadata").isEqualTo(Map.of("k", "v"));
    assertThat(sessions().find(id)).contains(updated);
  }

  @Test
  @DisplayName("Metadata is merged key by key: new keys are added, existing keys overwritten, others kept")
  void metadataIsMergedKeyByKey() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withMetadata(Map.of("a", "1", "b", "2")));

    Session merged = sessions().save(SessionWrite.of(id).withMetadata(Map.of("b", "3", "c", "4")));

    assertThat(merged.metadata()).as("merged metadata").isEqualTo(Map.of("a", "1", "b", "3", "c", "4"));
    assertThat(sessions().find(id).orElseThrow().metadata()).isEqualTo(Map.of("a", "1", "b", "3", "c", "4"));
  }

  @Test
  @DisplayName("A metadata key mapped to null is removed; the other keys stay")
  void nullMetadataValueRemovesTheKey() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withMetadata(Map.of("a", "1", "b", "2", "c", "3")));

    Session merged = sessions().save(SessionWrite.of(id).withMetadata("b", null).withMetadata("d", "4"));

    assertThat(merged.metadata()).as("metadata after removing key b").isEqualTo(Map.of("a", "1", "c", "3", "d", "4"));
    assertThat(sessions().find(id).orElseThrow().metadata()).isEqualTo(Map.of("a", "1", "c", "3", "d", "4"));
    assertThat(listIds(SessionQuery.all().metadata("b", "2"))).as("sessions still matching the removed pair")
        .isEmpty();
  }

  @Test
  @DisplayName("Removing a metadata key the session does not have changes nothing else")
  void removingAnAbsentMetadataKeyIsHarmless() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withMetadata("a", "1"));

    Session merged = sessions().save(SessionWrite.of(id).withMetadata("never-set", null));

    assertThat(merged.metadata()).isEqualTo(Map.of("a", "1"));
  }

  @Test
  @DisplayName("A null metadata value on a new session is simply absent")
  void nullMetadataValueOnANewSessionIsAbsent() {
    String id = id("s");

    Session saved = sessions().save(SessionWrite.of(id).withMetadata("gone", null).withMetadata("kept", "1"));

    assertThat(saved.metadata()).isEqualTo(Map.of("kept", "1"));
    assertThat(sessions().find(id).orElseThrow().metadata()).isEqualTo(Map.of("kept", "1"));
  }

  @Test
  @DisplayName("Settings are replaced as a whole, not merged")
  void settingsAreReplacedAsAWhole() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withSettings(json("{\"model\":\"a\",\"resume_policy\":\"eager\"}")));

    Session updated = sessions().save(SessionWrite.of(id).withSettings(json("{\"model\":\"b\"}")));

    assertThat(updated.settings()).isEqualTo(json("{\"model\":\"b\"}"));
    assertThat(sessions().find(id).orElseThrow().settings()).isEqualTo(json("{\"model\":\"b\"}"));
  }

  @Test
  @DisplayName("A custom status value round-trips and filters like the common ones")
  void customStatusRoundTrips() {
    String id = id("s");
    SessionStatus waiting = SessionStatus.of("waiting_for_human");
    sessions().save(SessionWrite.of(id).withStatus(waiting));
    sessions().save(SessionWrite.of(id("other")));

    assertThat(sessions().find(id).orElseThrow().status()).isEqualTo(waiting);
    assertThat(listIds(SessionQuery.all().status(waiting))).containsExactly(id);
  }

  // ---------------------------------------------------------------- implicit creation

  @Test
  @DisplayName("Appending to an unknown session creates it, active and with defaults, at the clock's time")
  void appendingCreatesTheSessionWithDefaults() {
    String id = id("s");
    clock.advance(Duration.ofMinutes(3));

    store.events().append(id, event("e-1"));

    Session created = sessions().find(id).orElseThrow(() -> new AssertionError("append did not create session"));
    assertThat(created.status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(created.settings()).isEqualTo(Json.emptyObject());
    assertThat(created.metadata()).isEmpty();
    assertThat(created.name()).isNull();
    assertThat(created.agentId()).isNull();
    assertThat(created.forkedFrom()).isNull();
    assertThat(created.createdAt()).isEqualTo(TestClock.START.plus(Duration.ofMinutes(3)));
    assertThat(listIds(SessionQuery.all().status(SessionStatus.ACTIVE))).containsExactly(id);
  }

  @Test
  @DisplayName("Appending to an existing session keeps its status, name, settings and metadata")
  void appendingKeepsAnExistingSession() {
    String id = id("s");
    Session saved = sessions().save(SessionWrite.of(id)
        .withName("paused-one")
        .withStatus(SessionStatus.PAUSED)
        .withSettings(json("{\"model\":\"m\"}"))
        .withMetadata("k", "v"));

    store.events().append(id, event("e-1"));

    Session after = sessions().find(id).orElseThrow();
    assertThat(after.status()).as("status after an append").isEqualTo(SessionStatus.PAUSED);
    assertThat(after.name()).isEqualTo("paused-one");
    assertThat(after.settings()).isEqualTo(saved.settings());
    assertThat(after.metadata()).isEqualTo(saved.metadata());
    assertThat(after.createdAt()).isEqualTo(saved.createdAt());
  }

  // ---------------------------------------------------------------- lookups

  @Test
  @DisplayName("Finding an unknown id or name is empty")
  void findingUnknownIsEmpty() {
    sessions().save(SessionWrite.of(id("s")).withName("known"));

    assertThat(sessions().find("no-such-session")).isEmpty();
    assertThat(sessions().findByName("no-such-name")).isEmpty();
  }

  @Test
  @DisplayName("Ids are byte-exact: case variants and surrounding spaces find nothing")
  void findIsByteExact() {
    String id = "Session-Abc";
    sessions().save(SessionWrite.of(id).withMetadata("owner", "original"));

    for (String variant : List.of("session-abc", "SESSION-ABC", "Session-Abc ", " Session-Abc", "Session-Abc\t")) {
      assertThat(sessions().find(variant)).as("find(\"%s\") for stored id \"%s\"", variant, id).isEmpty();
      assertThat(store.events().lastSeq(variant)).as("lastSeq of %s", variant).isZero();
    }
    assertThat(sessions().find(id)).isPresent();
  }

  @Test
  @DisplayName("Ids differing only in case are two sessions, each with its own data and log")
  void caseVariantIdsAreDistinctSessions() {
    sessions().save(SessionWrite.of("abc").withMetadata("owner", "lower"));
    sessions().save(SessionWrite.of("ABC").withMetadata("owner", "upper"));
    store.events().append("abc", event("only-in-lower"));

    assertThat(sessions().find("abc").orElseThrow().metadata()).containsEntry("owner", "lower");
    assertThat(sessions().find("ABC").orElseThrow().metadata()).containsEntry("owner", "upper");
    assertThat(store.events().lastSeq("ABC")).as("lastSeq of the upper-case twin").isZero();
    assertThat(sessions().list(SessionQuery.all()).items()).hasSize(2);
  }

  @Test
  @DisplayName("Unicode lookalike ids (NFC vs NFD) are never normalized into each other")
  void unicodeLookalikeIdsAreDistinct() {
    String nfc = "caf\u00e9";
    String nfd = "cafe\u0301";
    sessions().save(SessionWrite.of(nfc).withAgentId("agent-nfc"));
    store.events().append(nfc, event("e-nfc"));

    assertThat(sessions().find(nfd)).as("find of the NFD twin before it exists").isEmpty();
    assertThat(store.events().lastSeq(nfd)).as("lastSeq of %s", nfd).isZero();

    sessions().save(SessionWrite.of(nfd).withAgentId("agent-nfd"));

    assertThat(sessions().find(nfc).orElseThrow().agentId()).isEqualTo("agent-nfc");
    assertThat(sessions().find(nfd).orElseThrow().agentId()).isEqualTo("agent-nfd");
    assertThat(Events.readAll(store.events(), nfd)).as("log of the NFD twin").isEmpty();
    assertThat(sessions().list(SessionQuery.all()).items()).hasSize(2);
  }

  @Test
  @DisplayName("Ids with characters outside the Basic Multilingual Plane and inner spaces round-trip")
  void unusualButValidIdsRoundTrip() {
    List<String> ids = List.of("chat \uD83D\uDE00 1", "\u4F1A\u8BDD-\u4E00", "a b\tc", "x".repeat(256));
    for (String id : ids) {
      sessions().save(SessionWrite.of(id).withMetadata("id", id));
    }

    for (String id : ids) {
      assertThat(sessions().find(id)).as("find(\"%s\")", id).isPresent();
      assertThat(sessions().find(id).orElseThrow().metadata()).containsEntry("id", id);
    }
  }

  @Test
  @DisplayName("findByName returns the named session")
  void findByNameReturnsTheNamedSession() {
    String id = id("s");
    Session saved = sessions().save(SessionWrite.of(id).withName("crazy-mango"));
    sessions().save(SessionWrite.of(id("other")).withName("calm-kiwi"));

    assertThat(sessions().findByName("crazy-mango")).contains(saved);
  }

  @Test
  @DisplayName("Names are byte-exact: case variants, trailing spaces and NFD lookalikes find nothing")
  void findByNameIsByteExact() {
    sessions().save(SessionWrite.of(id("s")).withName("Caf\u00e9 Chat"));

    for (String variant : List.of("caf\u00e9 chat", "CAF\u00c9 CHAT", "Caf\u00e9 Chat ", " Caf\u00e9 Chat",
        "Cafe\u0301 Chat")) {
      assertThat(sessions().findByName(variant)).as("findByName(\"%s\")", variant).isEmpty();
    }
  }

  @Test
  @DisplayName("Two sessions may hold names that differ only in case or normalization")
  void lookalikeNamesAreDistinct() {
    String lower = id("s");
    String upper = id("s");
    String nfd = id("s");
    sessions().save(SessionWrite.of(lower).withName("caf\u00e9"));
    sessions().save(SessionWrite.of(upper).withName("CAF\u00c9"));
    sessions().save(SessionWrite.of(nfd).withName("cafe\u0301"));

    assertThat(sessions().findByName("caf\u00e9").map(Session::id)).contains(lower);
    assertThat(sessions().findByName("CAF\u00c9").map(Session::id)).contains(upper);
    assertThat(sessions().findByName("cafe\u0301").map(Session::id)).contains(nfd);
  }

  // ---------------------------------------------------------------- name uniqueness

  @Test
  @DisplayName("Creating a session with a name another session holds is a conflict and creates nothing")
  void takenNameOnCreateIsAConflict() {
    String owner = id("s");
    Session original = sessions().save(SessionWrite.of(owner).withName("shared").withMetadata("k", "v"));
    String intruder = id("s");

    assertThatThrownBy(() -> sessions().save(SessionWrite.of(intruder).withName("shared")))
        .isInstanceOf(ConflictException.class);

    assertThat(sessions().find(intruder)).as("session whose create conflicted").isEmpty();
    assertThat(sessions().find(owner)).contains(original);
    assertThat(sessions().findByName("shared")).contains(original);
  }

  @Test
  @DisplayName("Renaming a session to a taken name is a conflict and changes none of its fields")
  void takenNameOnUpdateIsAConflictAndChangesNothing() {
    String owner = id("s");
    String other = id("s");
    Session holder = sessions().save(SessionWrite.of(owner).withName("taken"));
    Session before = sessions().save(SessionWrite.of(other).withName("mine").withMetadata("k", "v"));
    clock.advance(Duration.ofSeconds(5));

    assertThatThrownBy(() -> sessions().save(SessionWrite.of(other)
        .withName("taken")
        .withStatus(SessionStatus.COMPLETED)
        .withMetadata(Map.of("k", "changed", "new", "x"))))
        .isInstanceOf(ConflictException.class);

    assertThat(sessions().find(other)).as("session after a conflicting rename").contains(before);
    assertThat(sessions().find(owner)).contains(holder);
    assertThat(sessions().findByName("mine").map(Session::id)).contains(other);
  }

  @Test
  @DisplayName("Saving a session again with its own name is not a conflict")
  void ownNameIsNotAConflict() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withName("mine"));

    Session again = sessions().save(SessionWrite.of(id).withName("mine").withStatus(SessionStatus.PAUSED));

    assertThat(again.name()).isEqualTo("mine");
    assertThat(again.status()).isEqualTo(SessionStatus.PAUSED);
  }

  @Test
  @DisplayName("Renaming a session frees its old name for another session")
  void renamingFreesTheOldName() {
    String first = id("s");
    String second = id("s");
    sessions().save(SessionWrite.of(first).withName("old"));
    sessions().save(SessionWrite.of(first).withName("new"));

    sessions().save(SessionWrite.of(second).withName("old"));

    assertThat(sessions().findByName("old").map(Session::id)).contains(second);
    assertThat(sessions().findByName("new").map(Session::id)).contains(first);
  }

  // ---------------------------------------------------------------- listing

  @Test
  @Tag("guarantee-13")
  @DisplayName("List returns sessions in creation order, not id order")
  void listIsInCreationOrder() {
    createInOrder("s-c", "s-a", "s-b");

    assertThat(listIds(SessionQuery.all())).containsExactly("s-c", "s-a", "s-b");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Sessions created at the same instant are listed by id, and an update does not move a session")
  void listBreaksTiesByIdAndIgnoresUpdates() {
    sessions().save(SessionWrite.of("t-b"));
    sessions().save(SessionWrite.of("t-c"));
    sessions().save(SessionWrite.of("t-a"));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of("t-b").withStatus(SessionStatus.PAUSED));

    assertThat(listIds(SessionQuery.all())).containsExactly("t-a", "t-b", "t-c");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Ids that tie on creation time are ordered by code point, also past U+FFFF, and cursors follow that order")
  void listTieBreakIsCodePointOrder() {
    String bmpHigh = "t-\uFF61";
    String astral = "t-\uD83D\uDE00";
    String ascii = "t-z";
    sessions().save(SessionWrite.of(astral));
    sessions().save(SessionWrite.of(bmpHigh));
    sessions().save(SessionWrite.of(ascii));

    assertThat(listIds(SessionQuery.all())).as("listing order of ids tied on creation time (U+007A, U+FF61, U+1F600)")
        .containsExactly(ascii, bmpHigh, astral);
    SessionPage first = sessions().list(SessionQuery.all().limit(2));
    assertThat(listIds(SessionQuery.all().after(first.nextCursor().orElseThrow())))
        .as("the page after the cursor of the first two").containsExactly(astral);
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("An id that is a prefix of another sorts before it, in listing ties and in listResumable")
  void aPrefixSortsBeforeTheLongerId() {
    Json eager = Json.of("{\"resume_policy\":\"eager\"}");
    for (String id : List.of("p-ab", "p-b", "p-a", "p-")) {
      sessions().save(SessionWrite.of(id).withSettings(eager));
    }

    assertThat(listIds(SessionQuery.all())).as("listing order of ids tied on creation time, one a prefix of the next")
        .containsExactly("p-", "p-a", "p-ab", "p-b");
    assertThat(sessions().listResumable()).as("resumable ids, one a prefix of the next")
        .containsExactly("p-", "p-a", "p-ab", "p-b");
    SessionPage first = sessions().list(SessionQuery.all().limit(2));
    assertThat(listIds(SessionQuery.all().after(first.nextCursor().orElseThrow())))
        .as("the page after the cursor of p- and p-a").containsExactly("p-ab", "p-b");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("List filters by status")
  void listFiltersByStatus() {
    sessions().save(SessionWrite.of("a").withStatus(SessionStatus.ACTIVE));
    sessions().save(SessionWrite.of("b").withStatus(SessionStatus.COMPLETED));
    sessions().save(SessionWrite.of("c").withStatus(SessionStatus.COMPLETED));
    sessions().save(SessionWrite.of("d").withStatus(SessionStatus.FAILED));

    assertThat(listIds(SessionQuery.all().status(SessionStatus.COMPLETED))).containsExactly("b", "c");
    assertThat(listIds(SessionQuery.all().status(SessionStatus.ACTIVE))).containsExactly("a");
    assertThat(listIds(SessionQuery.all().status(SessionStatus.ARCHIVED))).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("List filters by agent id")
  void listFiltersByAgentId() {
    sessions().save(SessionWrite.of("a").withAgentId("planner"));
    sessions().save(SessionWrite.of("b").withAgentId("coder"));
    sessions().save(SessionWrite.of("c").withAgentId("planner"));
    sessions().save(SessionWrite.of("d"));

    assertThat(listIds(SessionQuery.all().agentId("planner"))).containsExactly("a", "c");
    assertThat(listIds(SessionQuery.all().agentId("Planner"))).as("agent filter with another case").isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("List filters by name")
  void listFiltersByName() {
    sessions().save(SessionWrite.of("a").withName("alpha"));
    sessions().save(SessionWrite.of("b").withName("beta"));
    sessions().save(SessionWrite.of("c"));

    assertThat(listIds(SessionQuery.all().name("beta"))).containsExactly("b");
    assertThat(listIds(SessionQuery.all().name("gamma"))).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("List filters by metadata pairs: every pair must match exactly")
  void listFiltersByMetadataPairs() {
    sessions().save(SessionWrite.of("a").withMetadata(Map.of("env", "prod", "team", "x")));
    sessions().save(SessionWrite.of("b").withMetadata(Map.of("env", "prod", "team", "y")));
    sessions().save(SessionWrite.of("c").withMetadata(Map.of("env", "dev", "team", "x")));
    sessions().save(SessionWrite.of("d").withMetadata(Map.of("team", "x")));
    sessions().save(SessionWrite.of("e").withMetadata(Map.of("env", "Prod", "team", "x")));

    assertThat(listIds(SessionQuery.all().metadata("env", "prod"))).containsExactly("a", "b");
    assertThat(listIds(SessionQuery.all().metadata("env", "prod").metadata("team", "x"))).containsExactly("a");
    assertThat(listIds(SessionQuery.all().metadata("team", "x"))).containsExactly("a", "c", "d", "e");
    assertThat(listIds(SessionQuery.all().metadata("env", "staging"))).isEmpty();
    assertThat(listIds(SessionQuery.all().metadata("missing", "x"))).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("List combines status, agent, name and metadata filters")
  void listCombinesFilters() {
    sessions().save(SessionWrite.of("a").withAgentId("bot").withStatus(SessionStatus.PAUSED).withMetadata("k", "1"));
    sessions().save(SessionWrite.of("b").withAgentId("bot").withStatus(SessionStatus.ACTIVE).withMetadata("k", "1"));
    sessions().save(SessionWrite.of("c").withAgentId("bot").withStatus(SessionStatus.PAUSED).withMetadata("k", "2"));
    sessions().save(SessionWrite.of("d").withAgentId("human").withStatus(SessionStatus.PAUSED)
        .withMetadata("k", "1"));
    sessions().save(SessionWrite.of("e").withAgentId("bot").withStatus(SessionStatus.PAUSED).withMetadata("k", "1")
        .withName("named"));

    SessionQuery query = SessionQuery.all().status(SessionStatus.PAUSED).agentId("bot").metadata("k", "1");
    assertThat(listIds(query)).containsExactly("a", "e");
    assertThat(listIds(query.name("named"))).containsExactly("e");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("A limit returns the first N sessions and a cursor; no cursor when the limit covers every match")
  void limitReturnsTheFirstSessions() {
    createInOrder("a", "b", "c", "d", "e");

    SessionPage firstTwo = sessions().list(SessionQuery.all().limit(2));
    assertThat(firstTwo.items()).extracting(Session::id).containsExactly("a", "b");
    assertThat(firstTwo.nextCursor()).as("cursor when 3 more remain").isPresent();

    SessionPage exact = sessions().list(SessionQuery.all().limit(5));
    assertThat(exact.items()).hasSize(5);
    assertThat(exact.nextCursor()).as("cursor when the limit equals the number of sessions").isEmpty();

    SessionPage larger = sessions().list(SessionQuery.all().limit(50));
    assertThat(larger.items()).hasSize(5);
    assertThat(larger.nextCursor()).as("cursor when the limit exceeds the number of sessions").isEmpty();

    SessionPage unlimited = sessions().list(SessionQuery.all());
    assertThat(unlimited.items()).hasSize(5);
    assertThat(unlimited.nextCursor()).as("cursor without a limit").isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Cursor paging over an exact multiple of the page size neither skips nor repeats, and ends without a"
      + " cursor")
  void cursorPagingOverAnExactMultipleOfThePageSize() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      // pairs share a creation instant, so the id tie-break is part of the cursor
      String id = "p-" + (char) ('z' - i);
      sessions().save(SessionWrite.of(id));
      created.add(id);
      if (i % 2 == 1) {
        clock.advance(Duration.ofMillis(1));
      }
    }
    List<String> expected = listIds(SessionQuery.all());
    assertThat(expected).containsExactlyInAnyOrderElementsOf(created);

    List<List<String>> pages = walk(SessionQuery.all(), 3);

    assertThat(pages).as("pages of 3 over 9 sessions").hasSize(3);
    assertThat(pages.stream().flatMap(List::stream).collect(Collectors.toList())).containsExactlyElementsOf(expected);
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Cursor paging with every page size walks all sessions exactly once")
  void cursorPagingWithEveryPageSize() {
    for (int i = 0; i < 10; i++) {
      sessions().save(SessionWrite.of(String.format("w-%02d", 9 - i)));
      if (i % 3 == 0) {
        clock.advance(Duration.ofSeconds(1));
      }
    }
    List<String> expected = listIds(SessionQuery.all());

    for (int size = 1; size <= 11; size++) {
      List<List<String>> pages = walk(SessionQuery.all(), size);
      assertThat(pages).as("number of pages of size %d over 10 sessions", size).hasSize((10 + size - 1) / size);
      assertThat(pages.stream().flatMap(List::stream).collect(Collectors.toList()))
          .as("sessions walked with page size %d", size).containsExactlyElementsOf(expected);
    }
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Cursor paging with a filter walks exactly the matching sessions and ends without a cursor")
  void cursorPagingWithAFilter() {
    for (int i = 0; i < 12; i++) {
      SessionWrite write = SessionWrite.of(String.format("f-%02d", i));
      sessions().save(i % 3 == 0 ? write.withStatus(SessionStatus.PAUSED) : write);
      clock.advance(Duration.ofSeconds(1));
    }
    // the paused ones are f-00, f-03, f-06, f-09: the last match is not the last session

    List<List<String>> pages = walk(SessionQuery.all().status(SessionStatus.PAUSED), 2);

    assertThat(pages).as("pages of 2 over 4 paused sessions").containsExactly(
        List.of("f-00", "f-03"), List.of("f-06", "f-09"));
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Offset skips the first matching sessions")
  void offsetSkipsTheFirstMatches() {
    createInOrder("a", "b", "c", "d", "e");

    assertThat(listIds(SessionQuery.all().offset(2))).containsExactly("c", "d", "e");
    assertThat(listIds(SessionQuery.all().offset(1).limit(2))).containsExactly("b", "c");
    assertThat(listIds(SessionQuery.all().offset(5))).isEmpty();
    assertThat(listIds(SessionQuery.all().offset(50))).isEmpty();
    assertThat(sessions().list(SessionQuery.all().offset(3).limit(2)).nextCursor())
        .as("cursor of the page reaching the last session").isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Offset applies to the matching sessions, after the filters")
  void offsetAppliesAfterFilters() {
    createInOrder("a", "b", "c", "d", "e", "f");
    for (String id : List.of("b", "d", "f")) {
      sessions().save(SessionWrite.of(id).withAgentId("odd-one"));
    }

    assertThat(listIds(SessionQuery.all().agentId("odd-one").offset(1))).containsExactly("d", "f");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("A cursor and an offset together are rejected")
  void cursorWithOffsetIsRejected() {
    createInOrder("a", "b", "c");
    String cursor = sessions().list(SessionQuery.all().limit(1)).nextCursor().orElseThrow();

    assertThatThrownBy(() -> sessions().list(SessionQuery.all().after(cursor).offset(1)))
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("offset"));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A cursor the store did not make is rejected as an invalid cursor")
  void foreignCursorIsRejected() {
    createInOrder("a", "b");

    assertThatThrownBy(() -> sessions().list(SessionQuery.all().after("not a cursor at all")))
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("cursor"));
    assertThat(listIds(SessionQuery.all())).containsExactly("a", "b");
  }

  // ---------------------------------------------------------------- expiry

  @Test
  @DisplayName("An expiry is stored at microsecond precision, kept by a write that leaves it, replaced and cleared")
  void expiryRoundTrips() {
    String id = id("s");
    Instant expiry = clock.instant().plusSeconds(3_600).plusNanos(1_234_567);
    Instant micros = clock.instant().plusSeconds(3_600).plusNanos(1_234_000);

    Session created = sessions().save(SessionWrite.of(id).withExpiresAt(expiry));
    assertThat(created.expiry()).as("expiry as created").contains(micros);
    assertThat(sessions().find(id)).as("find after create").contains(created);

    clock.advance(Duration.ofSeconds(1));
    Session renamed = sessions().save(SessionWrite.of(id).withStatus(SessionStatus.PAUSED));
    assertThat(renamed.expiry()).as("expiry kept by an update that leaves it").contains(micros);
    assertThat(sessions().find(id).flatMap(Session::expiry)).as("expiry kept, as stored").contains(micros);
    Session merged = sessions().mergeMetadata(id, Map.of("k", "v"));
    assertThat(merged.expiry()).as("expiry kept by a metadata merge").contains(micros);

    Instant later = clock.instant().plusSeconds(7_200);
    assertThat(sessions().save(SessionWrite.of(id).withExpiresAt(later)).expiry()).as("expiry replaced")
        .contains(later);
    assertThat(sessions().find(id).flatMap(Session::expiry)).as("expiry replaced, as stored").contains(later);

    Session cleared = sessions().save(SessionWrite.of(id).withoutExpiry());
    assertThat(cleared.expiry()).as("expiry cleared").isEmpty();
    assertThat(sessions().find(id)).as("find after clearing").contains(cleared);
    assertThat(sessions().save(SessionWrite.of(id(("fresh")))).expiry()).as("a new session's default").isEmpty();
  }

  @Test
  @DisplayName("A session past its expiry is still found, listed and written: the store never deletes or hides it")
  void anExpiredSessionStays() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withExpiresAt(clock.instant().plusSeconds(1)));
    clock.advance(Duration.ofMinutes(5));

    assertThat(sessions().find(id)).as("find past the expiry").isPresent();
    assertThat(listIds(SessionQuery.all())).as("listing past the expiry").containsExactly(id);
    store.events().append(id, event(id("e")));
    assertThat(store.events().lastSeq(id)).as("an append past the expiry").isEqualTo(1);
  }

  @Test
  @DisplayName("expiresBefore selects set expiries strictly before the instant: one exactly at it is not selected")
  void expiresBeforeExcludesTheInstantItself() {
    Instant at = clock.instant().plusSeconds(100);
    String before = id("before");
    String exactlyAt = id("at");
    String after = id("after");
    sessions().save(SessionWrite.of(before).withExpiresAt(at.minusNanos(1_000)));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of(exactlyAt).withExpiresAt(at));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of(after).withExpiresAt(at.plusNanos(1_000)));
    sessions().save(SessionWrite.of(id("never")));
    String cleared = id("cleared");
    sessions().save(SessionWrite.of(cleared).withExpiresAt(at.minusSeconds(50)));
    sessions().save(SessionWrite.of(cleared).withoutExpiry());

    assertThat(listIds(SessionQuery.all().expiresBefore(at))).as("sessions expiring before the instant")
        .containsExactly(before);
    assertThat(listIds(SessionQuery.all().expiresBefore(at.plusNanos(1_000))))
        .as("sessions expiring before a microsecond later").containsExactly(before, exactlyAt);
    assertThat(listIds(SessionQuery.all().expiresBefore(Instant.MIN))).as("before the earliest instant").isEmpty();
    assertThat(listIds(SessionQuery.all().expiresBefore(Instant.MAX))).as("before the latest instant")
        .containsExactly(before, exactlyAt, after);
  }

  @Test
  @DisplayName("expiresBefore combines with the status, agent and metadata filters")
  void expiresBeforeCombinesWithOtherFilters() {
    Instant expired = clock.instant().minusSeconds(1);
    String match = id("match");
    String otherStatus = id("other-status");
    String otherAgent = id("other-agent");
    sessions().save(SessionWrite.of(match).withExpiresAt(expired).withStatus(SessionStatus.PAUSED)
        .withAgentId("a").withMetadata("kind", "chat"));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of(otherStatus).withExpiresAt(expired).withAgentId("a")
        .withMetadata("kind", "chat"));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of(otherAgent).withExpiresAt(expired).withStatus(SessionStatus.PAUSED)
        .withAgentId("b").withMetadata("kind", "chat"));
    sessions().save(SessionWrite.of(id("other-kind")).withExpiresAt(expired).withStatus(SessionStatus.PAUSED)
        .withAgentId("a").withMetadata("kind", "task"));
    sessions().save(SessionWrite.of(id("not-expired")).withExpiresAt(clock.instant().plusSeconds(1))
        .withStatus(SessionStatus.PAUSED).withAgentId("a").withMetadata("kind", "chat"));

    assertThat(listIds(SessionQuery.all().expiresBefore(clock.instant()).status(SessionStatus.PAUSED).agentId("a")
        .metadata("kind", "chat"))).as("expired, paused chats of agent a").containsExactly(match);
    assertThat(listIds(SessionQuery.all().expiresBefore(clock.instant()).metadata("kind", "chat")))
        .as("expired chats").containsExactly(match, otherStatus, otherAgent);
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Paging over many expired sessions by cursor and by offset neither skips nor repeats one")
  void expiresBeforePagesWithoutSkipOrRepeat() {
    List<String> expired = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      String id = id("s" + (char) ('a' + i));
      // Pairs share a creation instant, so the id breaks the tie; every third session expires later.
      boolean expires = i % 3 != 2;
      sessions().save(SessionWrite.of(id).withExpiresAt(clock.instant().plusSeconds(expires ? -10 - i : 10 + i)));
      if (expires) {
        expired.add(id);
      }
      if (i % 2 == 1) {
        clock.advance(Duration.ofSeconds(1));
      }
    }
    SessionQuery query = SessionQuery.all().expiresBefore(clock.instant()).limit(4);

    List<String> byCursor = new ArrayList<>();
    SessionPage page = sessions().list(query);
    byCursor.addAll(page.items().stream().map(Session::id).toList());
    while (page.nextCursor().isPresent()) {
      page = sessions().list(query.after(page.nextCursor().get()));
      byCursor.addAll(page.items().stream().map(Session::id).toList());
    }
    List<String> byOffset = new ArrayList<>();
    for (int offset = 0; offset < expired.size(); offset += 4) {
      byOffset.addAll(listIds(query.offset(offset)));
    }

    assertThat(byCursor).as("expired sessions paged by cursor").containsExactlyElementsOf(expired);
    assertThat(byOffset).as("expired sessions paged by offset").containsExactlyElementsOf(expired);
  }

  // ---------------------------------------------------------------- resumable

  @Test
  @Tag("guarantee-13")
  @DisplayName("listResumable lists exactly the sessions whose settings say resume_policy eager, by id, whatever"
      + " their status")
  void listResumableListsEagerSessions() {
    Json eager = json("{\"resume_policy\":\"eager\",\"model\":\"m\"}");
    sessions().save(SessionWrite.of("r-c").withSettings(eager));
    clock.advance(Duration.ofSeconds(1)); // creation order differs from id order
    sessions().save(SessionWrite.of("r-a").withSettings(eager).withStatus(SessionStatus.COMPLETED));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of("r-b").withSettings(json("{\"resume_policy\":\"eager\"}"))
        .withStatus(SessionStatus.ARCHIVED));
    sessions().save(SessionWrite.of("r-d").withSettings(json("{\"resume_policy\":\"lazy\"}")));
    sessions().save(SessionWrite.of("r-e"));
    sessions().save(SessionWrite.of("r-f").withSettings(json("{\"config\":{\"resume_policy\":\"eager\"}}")));
    sessions().save(SessionWrite.of("r-g").withSettings(json("{\"resume_policy\":[\"eager\"]}")));
    sessions().save(SessionWrite.of("r-h").withMetadata("resume_policy", "eager"));

    assertThat(sessions().listResumable()).containsExactly("r-a", "r-b", "r-c");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("listResumable sorts ids by code point, also past U+FFFF")
  void listResumableSortsByCodePoint() {
    Json eager = json("{\"resume_policy\":\"eager\"}");
    String bmpHigh = "r-\uFF61";
    String astral = "r-\uD83D\uDE00";
    sessions().save(SessionWrite.of(astral).withSettings(eager));
    clock.advance(Duration.ofSeconds(1));
    sessions().save(SessionWrite.of(bmpHigh).withSettings(eager));

    assertThat(sessions().listResumable()).as("resumable ids U+FF61 and U+1F600").containsExactly(bmpHigh, astral);
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("listResumable follows settings changes and deletions")
  void listResumableFollowsChanges() {
    sessions().save(SessionWrite.of("r-1").withSettings(json("{\"resume_policy\":\"eager\"}")));
    sessions().save(SessionWrite.of("r-2").withSettings(json("{\"resume_policy\":\"eager\"}")));
    sessions().save(SessionWrite.of("r-3"));
    assertThat(sessions().listResumable()).containsExactly("r-1", "r-2");

    sessions().save(SessionWrite.of("r-1").withSettings(json("{}")));
    sessions().save(SessionWrite.of("r-3").withSettings(json("{\"resume_policy\":\"eager\"}")));
    sessions().delete("r-2");

    assertThat(sessions().listResumable()).containsExactly("r-3");
  }

  @Test
  @DisplayName("listResumable is empty when no session asks for eager resumption")
  void listResumableIsEmptyWithoutEagerSessions() {
    sessions().save(SessionWrite.of("plain"));

    assertThat(sessions().listResumable()).isEmpty();
  }

  // ---------------------------------------------------------------- deletion and timestamps

  @Test
  @Tag("guarantee-3")
  @DisplayName("Delete returns whether the session existed, and deleting twice is fine")
  void deleteIsIdempotentAndReportsExistence() {
    String id = id("s");
    sessions().save(SessionWrite.of(id).withName("doomed"));
    String keep = id("s");
    sessions().save(SessionWrite.of(keep));

    assertThat(sessions().delete(id)).as("first delete of an existing session").isTrue();
    assertThat(sessions().find(id)).isEmpty();
    assertThat(sessions().findByName("doomed")).isEmpty();
    assertThat(sessions().delete(id)).as("second delete").isFalse();
    assertThat(sessions().delete("never-existed")).as("delete of an unknown id").isFalse();
    assertThat(listIds(SessionQuery.all())).containsExactly(keep);
  }

  @Test
  @DisplayName("A deleted session's name can be taken again")
  void deletingFreesTheName() {
    String first = id("s");
    sessions().save(SessionWrite.of(first).withName("reused"));
    sessions().delete(first);

    String second = id("s");
    sessions().save(SessionWrite.of(second).withName("reused"));

    assertThat(sessions().findByName("reused").map(Session::id)).contains(second);
  }

  @Test
  @DisplayName("An update keeps createdAt and moves updatedAt to the clock's time")
  void updateKeepsCreatedAtAndMovesUpdatedAt() {
    String id = id("s");
    Instant created = TestClock.START;
    sessions().save(SessionWrite.of(id));
    clock.advance(Duration.ofSeconds(90));

    Session updated = sessions().save(SessionWrite.of(id).withStatus(SessionStatus.PAUSED));

    assertThat(updated.createdAt()).as("createdAt after an update").isEqualTo(created);
    assertThat(updated.updatedAt()).as("updatedAt after an update").isEqualTo(created.plusSeconds(90));
    assertThat(sessions().find(id)).contains(updated);
  }

  @Test
  @DisplayName("Timestamps keep microsecond precision")
  void timestampsKeepMicroseconds() {
    clock.set(Instant.parse("2031-02-03T04:05:06.123456789Z"));
    String id = id("s");

    Session saved = sessions().save(SessionWrite.of(id));

    Instant expected = Instant.parse("2031-02-03T04:05:06.123456Z");
    assertThat(saved.createdAt()).isEqualTo(expected);
    assertThat(sessions().find(id).orElseThrow().createdAt()).as("createdAt read back").isEqualTo(expected);
    assertThat(sessions().find(id).orElseThrow().updatedAt()).as("updatedAt read back").isEqualTo(expected);
  }

  /** Walks {@code query} page by page with cursors and returns the ids of each page. */
  private List<List<String>> walk(SessionQuery query, int pageSize) {
    List<List<String>> pages = new ArrayList<>();
    Set<String> seenCursors = new HashSet<>();
    Optional<String> cursor = Optional.empty();
    do {
      SessionQuery pageQuery = cursor.map(query::after).orElse(query).limit(pageSize);
      SessionPage page = sessions().list(pageQuery);
      assertThat(page.items())
          .as("page %d of size %d (empty after a cursor: the previous page should have had no cursor)",
              pages.size() + 1, pageSize)
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(pageSize);
      pages.add(page.items().stream().map(Session::id).collect(Collectors.toList()));
      cursor = page.nextCursor();
      cursor.ifPresent(c -> assertThat(seenCursors.add(c)).as("cursor %s returned twice", c).isTrue());
      assertThat(pages.size()).as("pages walked (runaway cursor?)").isLessThanOrEqualTo(100);
    } while (cursor.isPresent());
    return pages;
  }

  @Test
  @DisplayName("mergeMetadata merges a patch into a stored session in one call; null values remove keys")
  void mergeMetadataPatchesTheStoredSession() {
    String session = id("s");
    Session saved = sessions().save(SessionWrite.of(session).withName(id("name")).withMetadata(Map.of("a", "1",
        "b", "2")));
    clock.advance(java.time.Duration.ofSeconds(3));
    Map<String, String> patch = new java.util.HashMap<>();
    patch.put("b", null);
    patch.put("c", "3");

    Session merged = sessions().mergeMetadata(session, patch);

    assertThat(merged.metadata()).isEqualTo(Map.of("a", "1", "c", "3"));
    assertThat(merged.name()).isEqualTo(saved.name());
    assertThat(merged.createdAt()).isEqualTo(saved.createdAt());
    assertThat(merged.updatedAt()).isEqualTo(clock.instant());
    assertThat(sessions().find(session)).contains(merged);
  }

  @Test
  @DisplayName("mergeMetadata of an unknown session is NotFoundException and creates nothing")
  void mergeMetadataOfAnUnknownSessionIsNotFound() {
    String session = id("s");

    assertThatThrownBy(() -> sessions().mergeMetadata(session, Map.of("a", "1")))
        .isInstanceOf(NotFoundException.class);
    assertThat(sessions().find(session)).isEmpty();
  }

  /** {@code count} metadata entries {@code k0 -> v0, k1 -> v1, ...}. */
  private static Map<String, String> metadataEntries(int count) {
    Map<String, String> entries = new java.util.HashMap<>();
    for (int i = 0; i < count; i++) {
      entries.put("k" + i, "v" + i);
    }
    return entries;
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A session holds exactly MAX_METADATA_ENTRIES entries; a save or merge that would add one more is "
      + "rejected as session.metadata and changes nothing")
  void metadataEntryBoundIsEnforcedAtItsEdge() {
    String session = id("s");
    Map<String, String> full = metadataEntries(Limits.MAX_METADATA_ENTRIES);

    Session saved = sessions().save(SessionWrite.of(session).withMetadata(full));
    assertThat(saved.metadata()).as("metadata of a session saved with MAX_METADATA_ENTRIES entries").isEqualTo(full);

    assertThat(catchThrowable(() -> sessions().save(SessionWrite.of(session).withMetadata("one-more", "x"))))
        .as("save adding entry MAX_METADATA_ENTRIES + 1")
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            error -> assertThat(error.field()).isEqualTo("session.metadata"));
    assertThat(catchThrowable(() -> sessions().mergeMetadata(session, Map.of("one-more", "x"))))
        .as("mergeMetadata adding entry MAX_METADATA_ENTRIES + 1")
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            error -> assertThat(error.field()).isEqualTo("session.metadata"));
    assertThat(catchThrowable(() -> store.commit(Step.builder(session)
        .session(SessionWrite.of(session).withMetadata("one-more", "x"))
        .event(event("in-the-rejected-step"))
        .build())))
        .as("a step whose session write adds entry MAX_METADATA_ENTRIES + 1")
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            error -> assertThat(error.field()).isEqualTo("session.metadata"));
    assertThat(sessions().find(session)).as("the session after three rejections").contains(saved);
    assertThat(store.events().lastSeq(session)).as("last seq after the rejected step").isZero();

    Map<String, String> swap = new java.util.HashMap<>();
    swap.put("k0", null);
    swap.put("replacement", "x");
    swap.put("k1", "changed");
    Session swapped = sessions().mergeMetadata(session, swap);
    assertThat(swapped.metadata()).as("metadata after removing one entry, adding one and changing one")
        .hasSize(Limits.MAX_METADATA_ENTRIES)
        .doesNotContainKey("k0")
        .containsEntry("replacement", "x")
        .containsEntry("k1", "changed");
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A new session with MAX_METADATA_ENTRIES + 1 entries is rejected and not created")
  void aNewSessionPastTheMetadataBoundIsNotCreated() {
    String session = id("s");

    assertThatThrownBy(() -> sessions().save(
        SessionWrite.of(session).withMetadata(metadataEntries(Limits.MAX_METADATA_ENTRIES + 1))))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            error -> assertThat(error.field()).isEqualTo("session.metadata"));
    assertThat(sessions().find(session)).as("a session whose first save was rejected").isEmpty();
  }

  @Test
  @DisplayName("Concurrent mergeMetadata calls of different keys all take effect")
  void concurrentMergesAllTakeEffect() {
    String session = id("s");
    sessions().save(SessionWrite.of(session));
    int threads = 16;

    Race.run(threads, java.time.Duration.ofSeconds(60),
        t -> sessions().mergeMetadata(session, Map.of("k" + t, "v" + t)));

    assertThat(sessions().find(session).orElseThrow().metadata()).hasSize(threads);
  }
}
