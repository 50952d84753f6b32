package io.jdra.apiserver.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who made a request, as upstream's {@code user.Info}: a name, a uid, groups and extra values (a
 * service account token bound to a pod carries its node in {@link #NODE_NAME_EXTRA}). Immutable.
 *
 * @param name the user name, e.g. {@code system:node:node-1}
 * @param uid a unique id, may be empty
 * @param groups the groups, {@code system:authenticated} included for authenticated users
 * @param extra extra values by key
 */
public record UserInfo(
    String name, String uid, List<String> groups, Map<String, List<String>> extra) {
  /** The group whose members may do everything (bound to cluster-admin). */
  public static final String SYSTEM_MASTERS = "system:masters";

  /** The group of every kubelet's identity. */
  public static final String NODES_GROUP = "system:nodes";

  /** The group every authenticated user is in. */
  public static final String AUTHENTICATED = "system:authenticated";

  /** The group of every service account. */
  public static final String SERVICE_ACCOUNTS = "system:serviceaccounts";

  /** The user name prefix of a node's identity. */
  public static final String NODE_PREFIX = "system:node:";

  /** The user name prefix of a service account's identity. */
  public static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

  /**
   * The extra key a service account token bound to a pod carries its node name in
   * (ServiceAccountTokenPodNodeInfo), which the DRA driver docs' admission policy reads.
   */
  public static final String NODE_NAME_EXTRA = "authentication.kubernetes.io/node-name";

  /** The admin of {@code jdra apiserver}'s and {@code jdra up}'s kubeconfig, as kubeadm's. */
  public static final String ADMIN = "kubernetes-admin";

  public UserInfo {
    Objects.requireNonNull(name, "user name");
    uid = uid == null ? "" : uid;
    groups = List.copyOf(groups);
    Map<String, List<String>> e = new LinkedHashMap<>();
    extra.forEach((k, v) -> e.put(k, List.copyOf(v)));
    extra = Map.copyOf(e);
  }

  /** The same user in {@code system:authenticated} too, as upstream's authenticator adds it. */
  public UserInfo authenticated() {
    if (groups.contains(AUTHENTICATED)) {
      return this;
    }
    List<String> g = new ArrayList<>(groups);
    g.add(AUTHENTICATED);
    return new UserInfo(name, uid, g, extra);
  }

  /** The admin: {@code kubernetes-admin} in {@code system:masters}. */
  public static UserInfo admin() {
    return new UserInfo(ADMIN, "", List.of(SYSTEM_MASTERS, AUTHENTICATED), Map.of());
  }

  /** A kubelet's identity: {@code system:node:NODE} in {@code system:nodes}. */
  public static UserInfo node(String node) {
    return new UserInfo(NODE_PREFIX + node, "", List.of(NODES_GROUP, AUTHENTICATED), Map.of());
  }

  /**
   * A service account's identity, as its token authenticates: {@code system:serviceaccount:NS:NAME}
   * in {@code system:serviceaccounts} and {@code system:serviceaccounts:NS}, with the node of the
   * pod it runs in when {@code node} is not null.
   */
  public static UserInfo serviceAccount(String namespace, String name, String node) {
    return new UserInfo(
        SERVICE_ACCOUNT_PREFIX + namespace + ":" + name,
        "",
        List.of(SERVICE_ACCOUNTS, SERVICE_ACCOUNTS + ":" + namespace, AUTHENTICATED),
        node == null ? Map.of() : Map.of(NODE_NAME_EXTRA, List.of(node)));
  }

  /** A plain user with the given groups. */
  public static UserInfo user(String name, String... groups) {
    return new UserInfo(name, "", List.of(groups), Map.of()).authenticated();
  }

  /**
   * The node this user is, as upstream's node identifier decides: present for a user in {@code
   * system:nodes} named {@code system:node:NAME}; the name is empty when it cannot be told.
   */
  public Optional<String> nodeName() {
    if (!name.startsWith(NODE_PREFIX) || !groups.contains(NODES_GROUP)) {
      return Optional.empty();
    }
    return Optional.of(name.substring(NODE_PREFIX.length()));
  }

  /** The first value of an extra key, or empty. */
  public String firstExtra(String key) {
    List<String> v = extra.get(key);
    return v == null || v.isEmpty() ? "" : v.get(0);
  }

  /** Whether this user is in {@code system:masters}. */
  public boolean isMaster() {
    return groups.contains(SYSTEM_MASTERS);
  }
}
