package io.jdra.apiserver.rest;

/**
 * Query options of a write.
 *
 * @param dryRun {@code dryRun=All}: validate, do not store
 * @param fieldManager the field manager, may be null
 * @param strictFields {@code fieldValidation=Strict}
 */
public record WriteOptions(boolean dryRun, String fieldManager, boolean strictFields) {
  public static final WriteOptions DEFAULT = new WriteOptions(false, null, false);
}
