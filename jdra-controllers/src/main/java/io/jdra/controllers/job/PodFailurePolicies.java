package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.List;

/**
 * Upstream's {@code matchPodFailurePolicy} (pod_failure_policy.go): the first rule whose exit codes
 * or pod conditions match a failed pod decides: {@code FailJob} (with upstream's message), {@code
 * Ignore} (not counted towards backoffLimit), {@code Count}. {@code FailIndex} applies to Indexed
 * Jobs only, which this controller does not run, so it counts as a failure. Stateless.
 */
final class PodFailurePolicies {
  private PodFailurePolicies() {}

  /** What the policy says about a failed pod. */
  record Match(String failJobMessage, boolean countFailed, String action) {
    static final Match DEFAULT = new Match(null, true, null);
  }

  static Match match(PodFailurePolicy policy, Pod failed) {
    if (policy == null || policy.getRules() == null) {
      return Match.DEFAULT;
    }
    List<PodFailurePolicyRule> rules = policy.getRules();
    for (int index = 0; index < rules.size(); index++) {
      PodFailurePolicyRule rule = rules.get(index);
      String what = null;
      if (rule.getOnExitCodes() != null) {
        ContainerStatus c = matchOnExitCodes(failed, rule.getOnExitCodes());
        if (c != null) {
          what =
              "Container "
                  + c.getName()
                  + " for pod "
                  + ref(failed)
                  + " failed with exit code "
                  + c.getState().getTerminated().getExitCode();
        }
      } else if (rule.getOnPodConditions() != null) {
        PodCondition c = matchOnPodConditions(failed, rule.getOnPodConditions());
        if (c != null) {
          what = "Pod " + ref(failed) + " has condition " + c.getType();
        }
      }
      if (what == null) {
        continue;
      }
      String action = rule.getAction();
      return switch (action) {
        case "Ignore" -> new Match(null, false, action);
        case "FailJob" ->
            new Match(what + " matching " + action + " rule at index " + index, true, action);
        default -> new Match(null, true, action); // Count, FailIndex
      };
    }
    return Match.DEFAULT;
  }

  private static String ref(Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  private static ContainerStatus matchOnExitCodes(
      Pod p, PodFailurePolicyOnExitCodesRequirement req) {
    if (p.getStatus() == null) {
      return null;
    }
    ContainerStatus c = matchIn(p.getStatus().getContainerStatuses(), req);
    return c != null ? c : matchIn(p.getStatus().getInitContainerStatuses(), req);
  }

  private static ContainerStatus matchIn(
      List<ContainerStatus> statuses, PodFailurePolicyOnExitCodesRequirement req) {
    if (statuses == null) {
      return null;
    }
    for (ContainerStatus s : statuses) {
      if (s.getState() == null || s.getState().getTerminated() == null) {
        continue;
      }
      if (req.getContainerName() != null && !req.getContainerName().equals(s.getName())) {
        continue;
      }
      int code = s.getState().getTerminated().getExitCode();
      if (code == 0) {
        continue; // a successful container never matches
      }
      boolean in = req.getValues() != null && req.getValues().contains(code);
      if ("In".equals(req.getOperator()) ? in : !in) {
        return s;
      }
    }
    return null;
  }

  private static PodCondition matchOnPodConditions(
      Pod p, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      for (PodFailurePolicyOnPodConditionsPattern pat : patterns) {
        String status = pat.getStatus() == null ? "True" : pat.getStatus();
        if (pat.getType().equals(c.getType()) && status.equals(c.getStatus())) {
          return c;
        }
      }
    }
    return null;
  }
}
