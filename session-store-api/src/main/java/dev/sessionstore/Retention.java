package dev.sessionstore;

/**
 * Retention: removing what a {@link RetentionPolicy} says is old, on demand here, or on a schedule the store owns
 * (configured on the adapter's builder, off by default). Thread-safe. Requires {@link Capability#RETENTION}.
 *
 * <p>Forks keep what they show (<a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#fine-print">the guarantees' fine print</a>): deleting an idle parent or cutting its chapters
 * never changes a fork's log, as deleting or truncating the parent never does. Each session is removed or cut in one
 * transaction of its own, with the same locks as a deletion or truncation, so a concurrent write to a session is
 * either in the state retention judged or makes it judge again; an application is not one transaction over the whole
 * store. Running it twice removes nothing the second time unless time passed or data changed. The model-call rule
 * removes nothing while the audit is off.
 */
public interface Retention {

  /**
   * Removes what {@code policy} says is old now, by the store clock.
   *
   * @return what was removed, per kind ({@link RetentionReport#dryRun()} false)
   * @throws InvalidArgumentException naming {@code policy} if it is null
   */
  RetentionReport apply(RetentionPolicy policy);

  /**
   * What {@link #apply} would remove now, writing nothing: the same counts, from the same rules.
   *
   * @return what would go, per kind ({@link RetentionReport#dryRun()} true)
   * @throws InvalidArgumentException naming {@code policy} if it is null
   */
  RetentionReport dryRun(RetentionPolicy policy);
}
