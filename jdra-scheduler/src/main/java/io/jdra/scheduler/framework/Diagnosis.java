package io.jdra.scheduler.framework;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Why an attempt found no node (upstream {@code framework.Diagnosis}): the status per rejected
 * node, the plugins that rejected (for requeueing), and a PreFilter message when PreFilter
 * rejected.
 */
public final class Diagnosis {
  private final Map<String, Status> nodeToStatus;
  private final Set<String> unschedulablePlugins = new LinkedHashSet<>();
  private final Set<String> pendingPlugins = new LinkedHashSet<>();
  private String preFilterMsg;
  private String postFilterMsg;

  public Diagnosis(Map<String, Status> nodeToStatus) {
    this.nodeToStatus = nodeToStatus;
  }

  public Map<String, Status> nodeToStatus() {
    return nodeToStatus;
  }

  public Set<String> unschedulablePlugins() {
    return unschedulablePlugins;
  }

  public Set<String> pendingPlugins() {
    return pendingPlugins;
  }

  public String preFilterMsg() {
    return preFilterMsg;
  }

  public void setPreFilterMsg(String m) {
    preFilterMsg = m;
  }

  public void setPostFilterMsg(String m) {
    postFilterMsg = m;
  }

  /**
   * Upstream's FitError message: {@code 0/3 nodes are available: 1 node(s) didn't match Pod's node
   * affinity/selector, 2 Insufficient cpu.} with reasons counted and sorted by text, then the
   * PostFilter message.
   */
  public String fitErrorMessage(int numAllNodes) {
    StringBuilder sb = new StringBuilder();
    sb.append("0/").append(numAllNodes).append(" nodes are available");
    if (preFilterMsg != null && !preFilterMsg.isEmpty()) {
      sb.append(": ").append(preFilterMsg).append('.');
    } else {
      Map<String, Integer> counts = new TreeMap<>();
      for (Status s : nodeToStatus.values()) {
        for (String r : s.reasons()) {
          counts.merge(r, 1, Integer::sum);
        }
      }
      if (counts.isEmpty()) {
        sb.append('.');
      } else {
        sb.append(": ");
        boolean first = true;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
          sb.append(first ? "" : ", ").append(e.getValue()).append(' ').append(e.getKey());
          first = false;
        }
        sb.append('.');
      }
    }
    if (postFilterMsg != null && !postFilterMsg.isEmpty()) {
      sb.append(' ').append(postFilterMsg);
    }
    return sb.toString();
  }
}
