package dev.sessionstore.conformance;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs only the named groups of the kit on a test class that extends {@link SessionStoreConformance}; every other
 * group is reported as disabled with {@link #reason()}. For a decorator run over one more backend, once the whole
 * kit passes on the decorator over one store and on that backend plain: there the groups whose values the decorator
 * transforms are the ones a backend can still break (an encrypting store: payloads, tool calls, summaries,
 * checkpoints, archives), and running the others again checks nothing new.
 *
 * <pre>{@code
 * @KitGroups(value = {PayloadContract.class, ArchiveContract.class},
 *     reason = "the whole kit runs on the encrypting in-memory store and on the plain PostgreSQL store")
 * class EncryptedPostgresConformanceTest extends PostgresConformanceTest { ... }
 * }</pre>
 *
 * <p>An adapter is never certified by a run with this annotation: its own run is the whole kit.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface KitGroups {

  /** The groups to run, by the contract class each nested group of {@link SessionStoreConformance} extends. */
  Class<? extends Contract>[] value();

  /** Why the other groups need not run here: where the whole kit runs instead. Reported with each disabled group. */
  String reason();
}
