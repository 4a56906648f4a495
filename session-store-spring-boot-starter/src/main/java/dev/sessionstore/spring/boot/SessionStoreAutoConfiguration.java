package dev.sessionstore.spring.boot;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * A {@link SessionStore} bean when the application defines none: a {@link JdbcSessionStore} over the application's
 * {@link DataSource} (PostgreSQL or SQLite, told by its connections) when there is one, else over the SQLite file
 * {@code session-store.sqlite.path}, or an in-memory store when {@code session-store.type=memory}. The store creates
 * its tables at startup and is closed with the context; the application's data source is never closed by it.
 *
 * <p>When the application has an {@link ObservationRegistry} bean (Spring Boot's Actuator defines one), the store is
 * an {@link ObservedSessionStore} over it: one observation {@code session.store.operation} per call, so timers and,
 * with {@code micrometer-tracing}, spans come with no code. A {@code SessionStore} bean of the application's own is
 * left as it is.
 *
 * <p>When {@code session-store.retention.*} sets a rule, the store applies that retention policy by itself on its
 * schedule ({@link SessionStoreProperties.Retention}).
 *
 * <p>One source for both Spring Boot lines: it runs after the {@code DataSourceAutoConfiguration} of either (Boot 4
 * moved it to {@code spring-boot-jdbc}), named by string so that neither line's class is needed to load it.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",   // Spring Boot 3
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"})  // Spring Boot 4 (spring-boot-jdbc)
@EnableConfigurationProperties(SessionStoreProperties.class)
public class SessionStoreAutoConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger(SessionStoreAutoConfiguration.class);

  /** The retention policy's members and the builders' retention fields, by the properties that set them. */
  private static final Map<String, String> RETENTION_FIELDS = Map.of(
      "policy", "retention",
      "retentionPolicy", "retention",
      "idleSessionAge", "retention.idle-for",
      "idleStatuses", "retention.statuses",
      "status", "retention.statuses",
      "idleTenant", "retention.tenant",
      "maxEventsPerSession", "retention.keep-events",
      "modelCallAge", "retention.model-calls-older-than",
      "retentionInterval", "retention.interval");

  /**
   * The store the properties describe.
   *
   * @throws IllegalStateException naming the property when a value is invalid, or when {@code type=jdbc} and the
   *                               application has no {@code DataSource}
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public SessionStore sessionStore(SessionStoreProperties properties, ObjectProvider<DataSource> dataSources,
      ObjectProvider<ObservationRegistry> observationRegistries) {
    SessionStore store = plainStore(properties, dataSources.getIfUnique());
    ObservationRegistry registry = observationRegistries.getIfUnique();
    return registry == null ? store : ObservedSessionStore.builder(store).registry(registry).build();
  }

  private static SessionStore plainStore(SessionStoreProperties properties, DataSource dataSource) {
    try {
      Optional<RetentionPolicy> retention = properties.retention().policy();
      Duration interval = properties.retention().interval();
      SessionStore store = switch (properties.type()) {
        case MEMORY -> {
          InMemorySessionStore.Builder builder = InMemorySessionStore.builder();
          retention.ifPresent(policy -> builder.retention(policy, interval));
          yield builder.build();
        }
        case SQLITE -> jdbc(properties, null, retention);
        case JDBC -> {
          if (dataSource == null) {
            throw new IllegalStateException(
                "session-store.type=jdbc needs a single DataSource bean, and there is none");
          }
          yield jdbc(properties, dataSource, retention);
        }
        case AUTO -> jdbc(properties, dataSource, retention);
      };
      LOG.info("session-store: {}", store);
      retention.ifPresent(policy -> LOG.info("session-store: applies {} every {}", policy, interval));
      return store;
    } catch (InvalidArgumentException e) {
      throw new IllegalStateException(property(e.field()) + ": " + e.getMessage(), e);
    }
  }

  private static SessionStore jdbc(SessionStoreProperties properties, DataSource dataSource,
      Optional<RetentionPolicy> retention) {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder();
    if (dataSource != null) {
      builder.dataSource(dataSource);
    } else {
      String path = properties.sqlite().path();
      if (path == null || path.isBlank()) {
        throw new InvalidArgumentException("sqlite.path", "must not be blank");
      }
      builder.jdbcUrl("jdbc:sqlite:" + path);
    }
    if (properties.schema() != null) {
      builder.schema(properties.schema());
    }
    if (properties.tablePrefix() != null) {
      builder.tablePrefix(properties.tablePrefix());
    }
    builder.notifications(properties.notifications());
    builder.retryTimeout(properties.retryTimeout());
    retention.ifPresent(policy -> builder.retention(policy, properties.retention().interval()));
    return builder.build();
  }

  /** The property behind a field an {@link InvalidArgumentException} names: {@code session-store.table-prefix}. */
  static String property(String field) {
    return "session-store." + RETENTION_FIELDS.getOrDefault(field, kebab(field));
  }

  /** {@code tablePrefix} as the property spells it, {@code table-prefix}. */
  static String kebab(String field) {
    return field.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }
}
