package dev.sessionstore.jdbc.internal;

import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The checked configuration of one store, as {@link dev.sessionstore.jdbc.JdbcSessionStore.Builder} resolved it
 * (defaults applied, identifiers validated).
 */
public record StoreSettings(
    DataSource dataSource,
    String schema,
    String tablePrefix,
    Clock clock,
    boolean createSchema,
    boolean modelCallAudit,
    Duration deadlineSweepInterval,
    Duration waitPollInterval,
    Duration retryTimeout) {
}
