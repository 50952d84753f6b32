package io.jdra.apiserver.auth;

import java.util.List;

/**
 * One RBAC rule, matched as upstream's {@code rbac.RuleAllows}: {@code *} matches any verb, group
 * or resource, {@code RESOURCE/SUB} a subresource, {@code * /SUB} (without the space) that
 * subresource of any resource; no resource names means any name; non-resource URLs match exactly or
 * by a trailing {@code *}. Immutable.
 *
 * @param verbs the verbs
 * @param apiGroups the API groups ({@code ""} for core)
 * @param resources the resources
 * @param resourceNames the names, empty for all
 * @param nonResourceUrls the non-resource paths (for rules that only have these)
 */
public record PolicyRule(
    List<String> verbs,
    List<String> apiGroups,
    List<String> resources,
    List<String> resourceNames,
    List<String> nonResourceUrls) {
  public PolicyRule {
    verbs = List.copyOf(verbs);
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
    nonResourceUrls = List.copyOf(nonResourceUrls);
  }

  /** Starts a rule with these verbs, as upstream's {@code rbacv1helpers.NewRule}. */
  public static Builder rule(String... verbs) {
    return new Builder(List.of(verbs));
  }

  /** Whether this rule allows the request. */
  public boolean allows(Attributes a) {
    if (!matchesAny(verbs, a.verb())) {
      return false;
    }
    if (!a.resourceRequest()) {
      return nonResourceUrls.stream().anyMatch(u -> urlMatches(u, a.path()));
    }
    return matchesAny(apiGroups, a.apiGroup())
        && resourceMatches(a.resource(), a.subresource())
        && (resourceNames.isEmpty() || resourceNames.contains(a.name()));
  }

  private static boolean matchesAny(List<String> allowed, String value) {
    return allowed.contains("*") || allowed.contains(value);
  }

  private boolean resourceMatches(String resource, String subresource) {
    String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
    for (String r : resources) {
      if (r.equals("*") || r.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty() && r.equals("*/" + subresource)) {
        return true;
      }
    }
    return false;
  }

  private static boolean urlMatches(String rule, String path) {
    if (rule.equals("*") || rule.equals(path)) {
      return true;
    }
    return rule.endsWith("*") && path.startsWith(rule.substring(0, rule.length() - 1));
  }

  /** Builds a rule: {@code rule("get").groups("").resources("pods").build()}. */
  public static final class Builder {
    private final List<String> verbs;
    private List<String> groups = List.of();
    private List<String> resources = List.of();
    private List<String> names = List.of();
    private List<String> urls = List.of();

    private Builder(List<String> verbs) {
      this.verbs = verbs;
    }

    public Builder groups(String... g) {
      groups = List.of(g);
      return this;
    }

    public Builder resources(String... r) {
      resources = List.of(r);
      return this;
    }

    public Builder names(String... n) {
      names = List.of(n);
      return this;
    }

    public Builder urls(String... u) {
      urls = List.of(u);
      return this;
    }

    public PolicyRule build() {
      return new PolicyRule(verbs, groups, resources, names, urls);
    }
  }
}
