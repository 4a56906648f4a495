package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class BadInputContract extends Contract {

  protected BadInputContract(SessionStoreConformance kit) {
    super(kit);
  }
}
