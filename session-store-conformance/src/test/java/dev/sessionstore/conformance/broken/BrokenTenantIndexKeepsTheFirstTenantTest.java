package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose tenant index is written when a session first gets a tenant and never updated: a session that
 * changes tenant is listed, and deleted, under its first tenant, while it reads back with the new one.
 */
class BrokenTenantIndexKeepsTheFirstTenantTest extends BrokenStoreTest {

  BrokenTenantIndexKeepsTheFirstTenantTest() {
    super(new Caught(SessionStoreConformance.Tenants.class, "aSessionThatChangesTenantIsListedUnderTheNewOneOnly",
            "sessions listed under the old tenant"),
        new Caught(SessionStoreConformance.Tenants.class, "aSessionThatChangesTenantIsDeletedWithTheNewOneOnly",
            "sessions deleted by the old tenant"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Map<String, String> firstTenants = new ConcurrentHashMap<>();
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session save(SessionWrite write) {
        Session saved = delegate.save(write);
        if (saved.tenant() != null) {
          firstTenants.putIfAbsent(saved.id(), saved.tenant());
        }
        return saved;
      }

      @Override
      public SessionPage list(SessionQuery query) {
        if (query.tenant() == null) {
          return delegate.list(query);
        }
        List<Session> indexed = delegate.list(new SessionQuery(query.status(), query.agentId(), query.name(), null,
            query.metadata(), query.expiresBefore(), query.limit(), query.cursor(), query.offset())).items().stream()
            .filter(session -> query.tenant().equals(firstTenants.get(session.id()))).toList();
        return new SessionPage(indexed, Optional.empty());
      }

      @Override
      public int deleteByTenant(String tenant) {
        int deleted = 0;
        for (Map.Entry<String, String> indexed : firstTenants.entrySet()) {
          if (indexed.getValue().equals(tenant) && delegate.delete(indexed.getKey())) {
            deleted++;
          }
        }
        return deleted;
      }
    });
  }
}
