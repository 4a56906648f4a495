package dev.sessionstore.spring.boot;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
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
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * A {@link SessionStore} bean when the application defines none: a {@link JdbcSessionStore} over the application's
 * {@link DataSource} (PostgreSQL or SQLite, told by its connections) when there is one, else over the SQLite file
 * {@code session-store.sqlite.path}, or an in-memory store when {@code session-store.type=memory}. The store creates
 * its tables at startup and is closed with the context; the application's data source is never closed by it.
 *
 * <p>The application chooses what comes with the store: the in-memory store ({@code session-store.type=memory})
 * needs {@code dev.sessionstore:session-store-memory} on the class path, and startup fails naming it when it is
 * missing; with {@code dev.sessionstore:session-store-micrometer} on the class path and an {@link ObservationRegistry}
 * bean (Spring Boot's Actuator defines one), the store is an {@code ObservedSessionStore} over it: one observation
 * {@code session.store.operation} per call, so timers and, with {@code micrometer-tracing}, spans come with no code.
 * A {@code SessionStore} bean of the application's own is left as it is.
 *
 * <p><b>The application's database wins.</b> With {@code type=auto} (the default) and no {@code DataSource} bean, a
 * {@code spring.datasource.url} in the environment is never ignored: without {@code spring-boot-starter-jdbc} Spring
 * Boot makes no data source of it, and startup fails saying to add
 * {@code org.springframework.boot:spring-boot-starter-jdbc} (and the database's driver), rather than writing to the
 * SQLite file. The store's log line at startup names the database it uses.
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
  private static final String DATASOURCE_URL = "spring.datasource.url";
  private static final String MEMORY_STORE = "dev.sessionstore.memory.InMemorySessionStore";
  private static final String OBSERVED_STORE = "dev.sessionstore.micrometer.ObservedSessionStore";

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
   *                               application has no {@code DataSource}, or {@code type=auto} with
   *                               {@code spring.datasource.url} set and no {@code DataSource} (naming
   *                               {@code spring-boot-starter-jdbc}), or {@code type=memory} without
   *                               {@code session-store-memory} (naming it)
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public SessionStore sessionStore(SessionStoreProperties properties, ObjectProvider<DataSource> dataSources,
      ObjectProvider<ObservationRegistry> observationRegistries, Environment environment,
      ResourceLoader resourceLoader) {
    ClassLoader classes = resourceLoader.getClassLoader();
    SessionStore store = plainStore(properties, dataSources.getIfUnique(), environment, classes);
    warnOfSpringAiWithoutBridge(classes);
    ObservationRegistry registry = observationRegistries.getIfUnique();
    return registry == null || !isPresent(OBSERVED_STORE, classes) ? store : StoreObservation.observe(store, registry);
  }

  /** Spring AI without the bridge: its own in-memory repository would keep the conversations, lost at shutdown. */
  private static void warnOfSpringAiWithoutBridge(ClassLoader classes) {
    if (isPresent(SessionStoreChatMemoryAutoConfiguration.SPRING_AI, classes)
        && !isPresent(SessionStoreChatMemoryAutoConfiguration.BRIDGE, classes)) {
      LOG.warn("session-store: Spring AI is on the class path without session-store's chat memory repository, so"
          + " Spring AI's chat memory is not kept in the store: add dev.sessionstore:session-store-spring-ai (Spring"
          + " AI 1.x, Spring Boot 3) or dev.sessionstore:session-store-spring-ai-2 (Spring AI 2.x, Spring Boot 4)");
    }
  }

  private static boolean isPresent(String className, ClassLoader classes) {
    return ClassUtils.isPresent(className, classes);
  }

  private static SessionStore plainStore(SessionStoreProperties properties, DataSource dataSource,
      Environment environment, ClassLoader classes) {
    try {
      Optional<RetentionPolicy> retention = properties.retention().policy();
      Duration interval = properties.retention().interval();
      SessionStore store = switch (properties.type()) {
        case MEMORY -> {
          if (!isPresent(MEMORY_STORE, classes)) {
            throw new IllegalStateException("session-store.type=memory needs the in-memory store, which is not on the"
                + " class path: add the dependency dev.sessionstore:session-store-memory (its version from"
                + " dev.sessionstore:session-store-bom)");
          }
          yield MemoryStores.build(retention, interval);
        }
        case SQLITE -> jdbc(properties, null, retention);
        case JDBC -> {
          if (dataSource == null) {
            throw new IllegalStateException(
                "session-store.type=jdbc needs a single DataSource bean, and there is none");
          }
          yield jdbc(properties, dataSource, retention);
        }
        case AUTO -> {
          if (dataSource == null && environment.containsProperty(DATASOURCE_URL)) {
            throw new IllegalStateException(DATASOURCE_URL + " is set, but the application has no DataSource bean,"
                + " so session-store would not use that database: add the dependency"
                + " org.springframework.boot:spring-boot-starter-jdbc (and the database's JDBC driver, such as"
                + " org.postgresql:postgresql), which makes the DataSource of it; or set session-store.type=sqlite to"
                + " keep the SQLite file " + properties.sqlite().path());
          }
          yield jdbc(properties, dataSource, retention);
        }
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
