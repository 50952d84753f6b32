package io.jdra.apiserver.rest;

import io.jdra.apiserver.auth.UserInfo;

/**
 * Query options of a write.
 *
 * @param dryRun {@code dryRun=All}: validate, do not store
 * @param fieldManager the field manager, may be null
 * @param strictFields {@code fieldValidation=Strict}
 * @param applied the object comes from server-side apply, which already set managedFields
 * @param user who writes, for admission; null for the server itself
 */
public record WriteOptions(
    boolean dryRun, String fieldManager, boolean strictFields, boolean applied, UserInfo user) {
  public static final WriteOptions DEFAULT = new WriteOptions(false, null, false, false, null);

  public WriteOptions(boolean dryRun, String fieldManager, boolean strictFields) {
    this(dryRun, fieldManager, strictFields, false, null);
  }

  public WriteOptions asApplied() {
    return new WriteOptions(dryRun, fieldManager, strictFields, true, user);
  }

  /** The same options for a write by {@code u}. */
  public WriteOptions by(UserInfo u) {
    return new WriteOptions(dryRun, fieldManager, strictFields, applied, u);
  }

  /** The manager managedFields records: the given one, else "jdra-apiserver". */
  public String manager() {
    return fieldManager == null || fieldManager.isEmpty() ? "jdra-apiserver" : fieldManager;
  }
}
