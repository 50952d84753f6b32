package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The query parameters that choose which state a list or watch reads, decoded, defaulted and
 * validated as kube-apiserver 1.36 does (WatchList enabled). Immutable.
 *
 * @param watch whether this is a watch
 * @param resourceVersion as given ("" when absent)
 * @param resourceVersionMatch as given ("" when absent)
 * @param continueToken as given ("" when absent)
 * @param limit page size, 0 for no limit
 * @param sendInitialEvents null when absent (after defaulting)
 * @param allowWatchBookmarks whether the client accepts BOOKMARK events
 */
record ListOptions(
    boolean watch,
    String resourceVersion,
    String resourceVersionMatch,
    String continueToken,
    int limit,
    Boolean sendInitialEvents,
    boolean allowWatchBookmarks) {

  static final String EXACT = "Exact";
  static final String NOT_OLDER_THAN = "NotOlderThan";

  /**
   * Reads, defaults and validates the options of a list or watch request.
   *
   * @throws ApiException 400 for undecodable values, 422 for invalid combinations
   */
  static ListOptions of(Request r, boolean watch) {
    ListOptions o =
        new ListOptions(
            watch,
            orEmpty(r.param("resourceVersion")),
            orEmpty(r.param("resourceVersionMatch")),
            orEmpty(r.param("continue")),
            ResourceHandler.intParam(r, "limit"),
            r.param("sendInitialEvents") == null ? null : r.flag("sendInitialEvents"),
            r.flag("allowWatchBookmarks"));
    o = o.defaulted();
    List<Cause> errs = watch ? o.watchErrors() : o.listErrors();
    if (!errs.isEmpty()) {
      throw invalid(errs);
    }
    return o;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** A legacy watch from "" or "0" becomes a watch-list: initial events, then changes. */
  private ListOptions defaulted() {
    boolean legacy = resourceVersion.isEmpty() || resourceVersion.equals("0");
    if (!watch || sendInitialEvents != null || !resourceVersionMatch.isEmpty() || !legacy) {
      return this;
    }
    return new ListOptions(
        watch, resourceVersion, NOT_OLDER_THAN, continueToken, limit, true, allowWatchBookmarks);
  }

  private List<Cause> listErrors() {
    List<Cause> errs = new ArrayList<>();
    String match = resourceVersionMatch;
    if (!match.isEmpty()) {
      if (resourceVersion.isEmpty()) {
        errs.add(
            forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided"));
      }
      if (!continueToken.isEmpty()) {
        errs.add(
            forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided"));
      }
      if (!match.equals(EXACT) && !match.equals(NOT_OLDER_THAN)) {
        errs.add(notSupported("resourceVersionMatch", match, List.of(EXACT, NOT_OLDER_THAN, "")));
      }
      if (match.equals(EXACT) && resourceVersion.equals("0")) {
        errs.add(
            forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
      }
    }
    if (sendInitialEvents != null) {
      errs.add(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    }
    return errs;
  }

  private List<Cause> watchErrors() {
    List<Cause> errs = new ArrayList<>();
    String match = resourceVersionMatch;
    if (sendInitialEvents != null && !match.equals(NOT_OLDER_THAN)) {
      errs.add(
          forbidden(
              "resourceVersionMatch",
              "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (!match.isEmpty()) {
      if (sendInitialEvents == null) {
        errs.add(
            forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      }
      if (!match.equals(NOT_OLDER_THAN)) {
        errs.add(notSupported("resourceVersionMatch", match, List.of(NOT_OLDER_THAN)));
      }
      if (!continueToken.isEmpty()) {
        errs.add(
            forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    return errs;
  }

  private static Cause forbidden(String field, String detail) {
    return new Cause("FieldValueForbidden", "Forbidden: " + detail, field);
  }

  private static Cause notSupported(String field, String value, List<String> supported) {
    String values = supported.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "));
    return new Cause(
        "FieldValueNotSupported",
        "Unsupported value: \"" + value + "\": supported values: " + values,
        field);
  }

  /** Upstream's {@code errors.NewInvalid} for the meta.k8s.io ListOptions kind. */
  private static ApiException invalid(List<Cause> causes) {
    String list =
        causes.size() == 1
            ? causes.get(0).toString()
            : causes.stream().map(Cause::toString).collect(Collectors.joining(", ", "[", "]"));
    return new ApiException(
        422,
        "Invalid",
        "ListOptions.meta.k8s.io \"\" is invalid: " + list,
        "",
        "meta.k8s.io",
        "ListOptions",
        causes);
  }
}
