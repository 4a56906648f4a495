package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class SummaryContract extends Contract {

  protected SummaryContract(SessionStoreConformance kit) {
    super(kit);
  }
}
