package io.jdra.apiserver.rest;

import io.jdra.apiserver.auth.UserInfo;

/**
 * Options of a delete (query parameters or a DeleteOptions body).
 *
 * @param gracePeriodSeconds null when not given
 * @param propagationPolicy Background, Foreground, Orphan or null for the resource's default
 * @param uid precondition, or null
 * @param resourceVersion precondition, or null
 * @param dryRun whether to only check
 * @param user who deletes, for admission; null for the server itself
 */
public record DeleteOptions(
    Long gracePeriodSeconds,
    String propagationPolicy,
    String uid,
    String resourceVersion,
    boolean dryRun,
    UserInfo user) {
  public static final DeleteOptions DEFAULT =
      new DeleteOptions(null, null, null, null, false, null);

  public DeleteOptions(
      Long gracePeriodSeconds,
      String propagationPolicy,
      String uid,
      String resourceVersion,
      boolean dryRun) {
    this(gracePeriodSeconds, propagationPolicy, uid, resourceVersion, dryRun, null);
  }

  /** The same options for a delete by {@code u}. */
  public DeleteOptions by(UserInfo u) {
    return new DeleteOptions(
        gracePeriodSeconds, propagationPolicy, uid, resourceVersion, dryRun, u);
  }
}
