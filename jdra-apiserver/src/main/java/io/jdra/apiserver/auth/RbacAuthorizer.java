package io.jdra.apiserver.auth;

import java.util.List;
import java.util.Map;

/**
 * RBAC over a fixed table of cluster roles and bindings (upstream's RBAC authorizer over its
 * bootstrap policy; the RBAC API objects are not served). Allows when a role bound to the user, or
 * to one of its groups, has a rule that allows the request; otherwise no opinion. Immutable.
 */
public final class RbacAuthorizer implements Authorizer {
  /**
   * A cluster role binding.
   *
   * @param group whether the subject is a group (else a user)
   * @param subject the user or group name
   * @param role the cluster role's name
   */
  public record Binding(boolean group, String subject, String role) {
    boolean appliesTo(UserInfo u) {
      return group ? u.groups().contains(subject) : u.name().equals(subject);
    }
  }

  private final Map<String, List<PolicyRule>> roles;
  private final List<Binding> bindings;

  public RbacAuthorizer(Map<String, List<PolicyRule>> roles, List<Binding> bindings) {
    this.roles = Map.copyOf(roles);
    this.bindings = List.copyOf(bindings);
    for (Binding b : bindings) {
      if (!roles.containsKey(b.role())) {
        throw new IllegalArgumentException("binding to unknown cluster role " + b.role());
      }
    }
  }

  @Override
  public Decision authorize(Attributes a) {
    for (Binding b : bindings) {
      if (b.appliesTo(a.user())) {
        for (PolicyRule r : roles.get(b.role())) {
          if (r.allows(a)) {
            return Decision.ALLOW;
          }
        }
      }
    }
    return Decision.NO_OPINION;
  }
}
