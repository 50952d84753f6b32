package io.jdra.apiserver.rest;

/**
 * Options of a delete (query parameters or a DeleteOptions body).
 *
 * @param gracePeriodSeconds null when not given
 * @param propagationPolicy Background, Foreground, Orphan or null for the resource's default
 * @param uid precondition, or null
 * @param resourceVersion precondition, or null
 * @param dryRun whether to only check
 */
public record DeleteOptions(
    Long gracePeriodSeconds,
    String propagationPolicy,
    String uid,
    String resourceVersion,
    boolean dryRun) {
  public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, null, null, false);
}
