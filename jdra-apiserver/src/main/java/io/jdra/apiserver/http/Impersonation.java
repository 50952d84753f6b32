package io.jdra.apiserver.http;

import io.jdra.apiserver.auth.Attributes;
import io.jdra.apiserver.auth.Authorizer;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.ApiException;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's impersonation filter ({@code kubectl --as USER --as-group G --as-uid UID}): the {@code
 * Impersonate-User}, {@code Impersonate-Group}, {@code Impersonate-Uid} and {@code
 * Impersonate-Extra-KEY} headers make the request the named user's, if the authenticated user may
 * {@code impersonate} each of them (users, groups, uids, userextras/KEY; a service account user by
 * the {@code serviceaccounts} resource of its namespace). The admin may; nobody else is granted it
 * by the bootstrap roles. Stateless.
 */
final class Impersonation {
  private static final String EXTRA_PREFIX = "impersonate-extra-";

  private Impersonation() {}

  /** The user the request acts as: {@code user} itself without impersonation headers. */
  static UserInfo apply(UserInfo user, MultiMap headers, Authorizer authorizer) {
    String name = headers.get("Impersonate-User");
    List<String> groups = headers.getAll("Impersonate-Group");
    String uid = headers.get("Impersonate-Uid");
    Map<String, List<String>> extra = new LinkedHashMap<>();
    for (Map.Entry<String, String> h : headers) {
      String key = h.getKey().toLowerCase(java.util.Locale.ROOT);
      if (key.startsWith(EXTRA_PREFIX)) {
        String extraKey =
            java.net.URLDecoder.decode(
                key.substring(EXTRA_PREFIX.length()), java.nio.charset.StandardCharsets.UTF_8);
        extra.computeIfAbsent(extraKey, k -> new ArrayList<>()).add(h.getValue());
      }
    }
    if (name == null || name.isEmpty()) {
      if (!groups.isEmpty() || uid != null || !extra.isEmpty()) {
        // upstream answers 500; the request is the client's mistake
        throw ApiException.badRequest(
            "requested ["
                + String.join(", ", headersOf(groups, uid, extra))
                + "] without"
                + " impersonating a user");
      }
      return user;
    }
    List<String> allGroups = new ArrayList<>(groups);
    if (name.startsWith(UserInfo.SERVICE_ACCOUNT_PREFIX)) {
      String[] nsName = name.substring(UserInfo.SERVICE_ACCOUNT_PREFIX.length()).split(":", 2);
      if (nsName.length != 2) {
        throw ApiException.badRequest("invalid service account user name " + name);
      }
      check(user, authorizer, "impersonate", nsName[0], "", "serviceaccounts", "", nsName[1]);
      allGroups.add(UserInfo.SERVICE_ACCOUNTS);
      allGroups.add(UserInfo.SERVICE_ACCOUNTS + ":" + nsName[0]);
    } else {
      check(user, authorizer, "impersonate", "", "", "users", "", name);
    }
    for (String g : groups) {
      check(user, authorizer, "impersonate", "", "", "groups", "", g);
    }
    if (uid != null) {
      check(user, authorizer, "impersonate", "", "authentication.k8s.io", "uids", "", uid);
    }
    for (Map.Entry<String, List<String>> e : extra.entrySet()) {
      for (String v : e.getValue()) {
        check(
            user,
            authorizer,
            "impersonate",
            "",
            "authentication.k8s.io",
            "userextras",
            e.getKey(),
            v);
      }
    }
    return new UserInfo(name, uid, allGroups, extra).authenticated();
  }

  private static List<String> headersOf(
      List<String> groups, String uid, Map<String, List<String>> extra) {
    List<String> h = new ArrayList<>();
    groups.forEach(g -> h.add("Impersonate-Group: " + g));
    if (uid != null) {
      h.add("Impersonate-Uid: " + uid);
    }
    extra.forEach((k, vs) -> vs.forEach(v -> h.add("Impersonate-Extra-" + k + ": " + v)));
    return h;
  }

  private static void check(
      UserInfo user,
      Authorizer authorizer,
      String verb,
      String ns,
      String group,
      String resource,
      String sub,
      String name) {
    Attributes a = Attributes.resource(user, verb, ns, group, resource, sub, name);
    var d = authorizer.authorize(a);
    if (!d.allowed()) {
      String why =
          d.reason().isEmpty() ? a.forbiddenMessage() : a.forbiddenMessage() + ": " + d.reason();
      throw ApiException.forbidden(group, resource, name, why);
    }
  }
}
