package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class DeadlineContract extends Contract {

  protected DeadlineContract(SessionStoreConformance kit) {
    super(kit);
  }
}
