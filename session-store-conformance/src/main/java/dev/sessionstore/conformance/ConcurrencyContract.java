package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class ConcurrencyContract extends Contract {

  protected ConcurrencyContract(SessionStoreConformance kit) {
    super(kit);
  }
}
