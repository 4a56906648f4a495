package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.sessionstore.Capability;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link SessionStoreMemoryService} adds to ADK's contract: sessions the session service keeps are marked, not
 * copied, and memory follows them (later events, deletion); only text parts are searched; the builder's checks.
 */
class MemoryServiceSemanticsTest {

  private static Event said(String author, String text) {
    return Event.builder().id(Event.generateEventId()).invocationId("inv").author(author)
        .timestamp(System.currentTimeMillis())
        .content(Content.builder().role(author).parts(Part.fromText(text)).build()).build();
  }

  private static List<String> texts(BaseMemoryService memory, String user, String query) {
    return memory.searchMemory("app", user, query).blockingGet().memories().stream()
        .map(entry -> entry.content().parts().orElseThrow().get(0).text().orElseThrow()).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a kept session is searchable once added: marked, not copied; later events too; gone when deleted")
  void keptSessionIsMarkedAndFollowed(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService sessions = database.service();
      BaseMemoryService memory = database.memory();
      Session session = sessions.createSession("app", "ada", Map.of(), "s1").blockingGet();
      sessions.appendEvent(session, said("user", "My favorite project is Project Alpha.")).blockingGet();
      assertThat(texts(memory, "ada", "project")).as("not added yet").isEmpty();

      memory.addSessionToMemory(session).blockingAwait();
      assertThat(texts(memory, "ada", "project")).containsExactly("My favorite project is Project Alpha.");
      SessionStore store = database.open();
      assertThat(store.sessions().find(ScopeIds.session("app", "ada", "s1")).orElseThrow().metadata())
          .containsEntry(SessionStoreMemoryService.META_MEMORY, ScopeIds.userState("app", "ada"));
      assertThat(store.sessions().find(ScopeIds.memory("app", "ada", "s1"))).as("no copy").isEmpty();
      assertThat(sessions.listSessions("app", "ada").blockingGet().sessions()).extracting(Session::id)
          .containsExactly("s1");

      sessions.appendEvent(session, said("model", "Project Beta is next.")).blockingGet();
      memory.addSessionToMemory(session).blockingAwait();
      assertThat(texts(memory, "ada", "project")).containsExactlyInAnyOrder(
          "My favorite project is Project Alpha.", "Project Beta is next.");
      assertThat(texts(memory, "grace", "project")).isEmpty();

      sessions.deleteSession("app", "ada", "s1").blockingAwait();
      assertThat(texts(memory, "ada", "project")).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("only the text parts of an event's content are searched: not its author, role, ids or tool results")
  void onlyTextPartsAreSearched(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      Event toolResult = Event.builder().id("tool").invocationId("inv").author("model").timestamp(2_000)
          .content(Content.builder().role("user").parts(Part.builder().functionResponse(FunctionResponse.builder()
              .name("lookup").response(Map.of("result", "Paris is sunny")).build()).build()).build()).build();
      Session other = Session.builder("foreign").appName("app").userId("ada")
          .events(new ArrayList<>(List.of(said("user", "Take me to Paris"), toolResult))).build();
      memory.addSessionToMemory(other).blockingAwait();
      assertThat(texts(memory, "ada", "Paris sunny")).containsExactly("Take me to Paris");
      assertThat(texts(memory, "ada", "user")).isEmpty();
      assertThat(texts(memory, "ada", "inv lookup result")).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a copied event id added again with other content fails; the limit caps the memories")
  void reusedIdFailsAndLimitCaps(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      Event first = said("user", "alpha one");
      memory.addSessionToMemory(Session.builder("x").appName("app").userId("ada")
          .events(new ArrayList<>(List.of(first, said("user", "alpha two"), said("user", "alpha three"))))
          .build()).blockingAwait();
      first.setContent(Content.fromParts(Part.fromText("alpha changed")));
      Session changed = Session.builder("x").appName("app").userId("ada").events(new ArrayList<>(List.of(first)))
          .build();
      assertThatThrownBy(() -> memory.addSessionToMemory(changed).blockingAwait())
          .isInstanceOf(SessionException.class).hasMessageContaining(first.id());
      SessionStoreMemoryService two = SessionStoreMemoryService.builder(database.open()).limit(2).build();
      assertThat(texts(two, "ada", "alpha")).hasSize(2);
      assertThat(texts(memory, "ada", "alpha")).hasSize(3);
    }
  }

  @Test
  @DisplayName("the builder refuses a store without search, a bad limit and a setting given twice")
  void builderChecks() {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      assertThatThrownBy(() -> SessionStoreMemoryService.builder(new WithoutSearch(store)).build())
          .isInstanceOf(UnsupportedCapabilityException.class).hasMessageContaining("SEARCH");
      assertThatThrownBy(() -> SessionStoreMemoryService.builder(store).limit(0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SessionStoreMemoryService.builder(store).limit(101))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SessionStoreMemoryService.builder(store).limit(5).limit(6))
          .isInstanceOf(IllegalStateException.class);
      assertThat(SessionStoreMemoryService.builder(store).build()
          .searchMemory("app", "nobody", "anything").blockingGet().memories()).isEmpty();
    }
  }

  /** A store as the delegate, but without {@link Capability#SEARCH}. */
  private static final class WithoutSearch extends ForwardingSessionStore {

    WithoutSearch(SessionStore delegate) {
      super(delegate, Interception.none());
    }

    @Override
    public Set<Capability> capabilities() {
      Set<Capability> capabilities = EnumSet.noneOf(Capability.class);
      capabilities.addAll(delegate().capabilities());
      capabilities.remove(Capability.SEARCH);
      return capabilities;
    }

    @Override
    public boolean supports(Capability capability) {
      return capabilities().contains(capability);
    }

    @Override
    public Search search() {
      throw new UnsupportedCapabilityException(Capability.SEARCH);
    }
  }
}
