package dev.sessionstore.springai.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionRepository;

/**
 * {@link SessionStoreSessionRepository} on a store that does not declare {@link Capability#SEARCH} (the in-memory
 * adapter behind a decorator that leaves it out and refuses searches, as an adapter without an index does): every
 * field but the keyword works; the keyword is refused with the capability named, never answered by a scan.
 */
class WithoutSearchSessionRepositoryTest extends SessionRepositoryContract {

  @Override
  protected SessionRepository newRepository() {
    return SessionStoreSessionRepository.of(new WithoutSearch(InMemorySessionStore.builder().build()));
  }

  @Override
  protected boolean searchesKeywords() {
    return false;
  }

  @Test
  @DisplayName("a keyword on a store without SEARCH fails with UnsupportedCapabilityException naming SEARCH")
  void keywordRefusedByCapability() {
    session("s", "u");
    repository.appendEvent(event("s", "e1", new UserMessage("paris"), 0));
    assertThatThrownBy(() -> repository.findEvents("s", EventFilter.keywordSearch("paris")))
        .isInstanceOfSatisfying(UnsupportedCapabilityException.class,
            e -> assertThat(e.capability()).isEqualTo(Capability.SEARCH));
  }

  /** The delegate without {@link Capability#SEARCH}: undeclared, and every search refused. */
  private static final class WithoutSearch extends ForwardingSessionStore {

    WithoutSearch(SessionStore delegate) {
      super(delegate, Interception.none());
    }

    @Override
    public Set<Capability> capabilities() {
      Set<Capability> capabilities = EnumSet.copyOf(delegate().capabilities());
      capabilities.remove(Capability.SEARCH);
      return capabilities;
    }

    @Override
    public boolean supports(Capability capability) {
      return capabilities().contains(capability);
    }

    @Override
    protected Search decorate(Search search) {
      return query -> {
        throw new UnsupportedCapabilityException(Capability.SEARCH);
      };
    }
  }
}
