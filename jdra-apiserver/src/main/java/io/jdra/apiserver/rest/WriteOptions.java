package io.jdra.apiserver.rest;

/**
 * Query options of a write.
 *
 * @param dryRun {@code dryRun=All}: validate, do not store
 * @param fieldManager the field manager, may be null
 * @param strictFields {@code fieldValidation=Strict}
 * @param applied the object comes from server-side apply, which already set managedFields
 */
public record WriteOptions(
    boolean dryRun, String fieldManager, boolean strictFields, boolean applied) {
  public static final WriteOptions DEFAULT = new WriteOptions(false, null, false, false);

  public WriteOptions(boolean dryRun, String fieldManager, boolean strictFields) {
    this(dryRun, fieldManager, strictFields, false);
  }

  public WriteOptions asApplied() {
    return new WriteOptions(dryRun, fieldManager, strictFields, true);
  }

  /** The manager managedFields records: the given one, else "jdra-apiserver". */
  public String manager() {
    return fieldManager == null || fieldManager.isEmpty() ? "jdra-apiserver" : fieldManager;
  }
}
