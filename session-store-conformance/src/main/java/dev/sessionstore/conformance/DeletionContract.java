package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class DeletionContract extends Contract {

  protected DeletionContract(SessionStoreConformance kit) {
    super(kit);
  }
}
