package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the search's picks into AllocationResults as upstream does. */
final class Results {
  private Results() {}

  /**
   * Fails as {@link #build} would, without building anything: the search succeeded, but a chosen
   * device's node selector has more than one term, which no AllocationResult can express.
   */
  static void check(Search search) throws AllocationException {
    for (int c = 0; c < search.claims.size(); c++) {
      int terms = unsupportedTerms(search.results[c]);
      if (terms > 1) {
        throw new AllocationException(
            "create NodeSelector for claim "
                + search.claims.get(c).getMetadata().getName()
                + ": unsupported ResourceSlice.NodeSelector with "
                + terms
                + " terms");
      }
    }
  }

  /** The results of a search that succeeded and passed {@link #check}. */
  static List<AllocationResult> build(Search search) {
    List<AllocationResult> out = new ArrayList<>();
    for (int c = 0; c < search.claims.size(); c++) {
      ResourceClaim claim = search.claims.get(c);
      List<DeviceRequestAllocationResult> results = new ArrayList<>();
      for (Pick p : search.results[c]) {
        results.add(result(search, p));
      }
      NodeSelector nodeSelector = nodeSelector(search.results[c], NodeMatcher.name(search.node));
      // Plain setters: fabric8's builders cost more than the whole search in the common case.
      DeviceAllocationResult devices = new DeviceAllocationResult();
      devices.setResults(results);
      devices.setConfig(config(search, c, claim));
      AllocationResult result = new AllocationResult();
      result.setDevices(devices);
      result.setNodeSelector(nodeSelector);
      out.add(result);
    }
    return out;
  }

  private static DeviceRequestAllocationResult result(Search search, Pick p) {
    RequestData rd = p.request();
    // Unset fields stay null, so they are omitted as upstream omits them.
    DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
    r.setRequest(rd.resultName());
    r.setDriver(p.dev().id.driver());
    r.setPool(p.dev().id.pool());
    r.setDevice(p.dev().id.device());
    r.setAdminAccess(rd.adminAccess() ? Boolean.TRUE : null);
    r.setTolerations(rd.tolerations.isEmpty() ? null : new ArrayList<>(rd.tolerations));
    r.setShareID(p.shareId());
    r.setConsumedCapacity(
        p.consumedCapacity() == null ? null : new LinkedHashMap<>(p.consumedCapacity()));
    r.setBindingConditions(null);
    r.setBindingFailureConditions(null);
    r.setSkipNodeOperations(null);
    if (search.features.deviceBindingAndStatus()) {
      List<String> bc = p.dev().device.getBindingConditions();
      List<String> bfc = p.dev().device.getBindingFailureConditions();
      r.setBindingConditions(bc == null || bc.isEmpty() ? null : new ArrayList<>(bc));
      r.setBindingFailureConditions(bfc == null || bfc.isEmpty() ? null : new ArrayList<>(bfc));
    }
    return r;
  }

  /** Class config (per class, listing the requests using it), then claim config in scope. */
  private static List<DeviceAllocationConfiguration> config(
      Search search, int c, ResourceClaim claim) {
    List<DeviceAllocationConfiguration> out = new ArrayList<>();
    Map<String, int[]> rangeByClass = new LinkedHashMap<>();
    RequestData[][] reqs = search.requests[c];
    for (int r = 0; r < reqs.length; r++) {
      RequestData rd = chosen(search, c, r);
      if (rd.deviceClass == null) {
        continue;
      }
      String cls = rd.deviceClass.getMetadata().getName();
      int[] range = rangeByClass.get(cls);
      if (range != null) {
        for (int i = range[0]; i < range[1]; i++) {
          out.get(i).getRequests().add(rd.resultName());
        }
        continue;
      }
      int start = out.size();
      List<DeviceClassConfiguration> cfgs =
          rd.deviceClass.getSpec() == null ? null : rd.deviceClass.getSpec().getConfig();
      for (DeviceClassConfiguration cfg : NodeMatcher.list(cfgs)) {
        List<String> requests = new ArrayList<>();
        requests.add(rd.resultName());
        out.add(
            new DeviceAllocationConfigurationBuilder()
                .withSource("FromClass")
                .withRequests(requests)
                .withOpaque(cfg.getOpaque())
                .build());
      }
      rangeByClass.put(cls, new int[] {start, out.size()});
    }
    if (claim.getSpec() == null || claim.getSpec().getDevices() == null) {
      return out;
    }
    List<DeviceRequest> requests = NodeMatcher.list(claim.getSpec().getDevices().getRequests());
    for (DeviceClaimConfiguration cfg :
        NodeMatcher.list(claim.getSpec().getDevices().getConfig())) {
      List<String> names = NodeMatcher.list(cfg.getRequests());
      if (names.isEmpty()) {
        out.add(claimConfig(cfg, null));
        continue;
      }
      for (int r = 0; r < requests.size(); r++) {
        DeviceRequest req = requests.get(r);
        if (names.contains(req.getName())) {
          out.add(claimConfig(cfg, names));
          continue;
        }
        RequestData rd = chosen(search, c, r);
        if (rd.isSubRequest() && names.contains(rd.resultName())) {
          out.add(claimConfig(cfg, names));
        }
      }
    }
    return out;
  }

  private static DeviceAllocationConfiguration claimConfig(
      DeviceClaimConfiguration cfg, List<String> names) {
    DeviceAllocationConfiguration out =
        new DeviceAllocationConfigurationBuilder()
            .withSource("FromClaim")
            .withOpaque(cfg.getOpaque())
            .build();
    out.setRequests(names == null ? null : new ArrayList<>(names));
    return out;
  }

  private static RequestData chosen(Search search, int c, int r) {
    RequestData[] subs = search.requests[c][r];
    return subs[subs.length > 1 || subs[0].isSubRequest() ? search.selectedSub[c][r] : 0];
  }

  /**
   * The number of terms of the first multi-term selector {@link #nodeSelector} would meet before a
   * device local to the node ends its scan; 0 when there is none.
   */
  private static int unsupportedTerms(List<Pick> picks) {
    for (Pick p : picks) {
      int check = p.dev().facts.nodeSelectorCheck;
      if (check >= 0) {
        return check;
      }
    }
    return 0;
  }

  /**
   * {@code metadata.name In [node]} when a chosen device is local to the node (or binds to it);
   * else one term merging the slices' (or devices') selectors; else none.
   */
  static NodeSelector nodeSelector(List<Pick> picks, String nodeName) {
    List<NodeSelectorRequirement> fields = new ArrayList<>();
    List<NodeSelectorRequirement> exprs = new ArrayList<>();
    for (Pick p : picks) {
      Dev dev = p.dev();
      String name;
      NodeSelector sel;
      if (dev.perDeviceNodeSelection()) {
        name = dev.device.getNodeName();
        sel = dev.device.getNodeSelector();
      } else {
        name = dev.slice.getSpec().getNodeName();
        sel = dev.slice.getSpec().getNodeSelector();
      }
      if (name != null || Boolean.TRUE.equals(dev.device.getBindsToNode())) {
        NodeSelectorRequirement req = new NodeSelectorRequirement();
        req.setKey("metadata.name");
        req.setOperator("In");
        req.setValues(new ArrayList<>(List.of(nodeName)));
        NodeSelectorTerm term = new NodeSelectorTerm();
        term.setMatchFields(new ArrayList<>(List.of(req)));
        term.setMatchExpressions(null);
        NodeSelector ns = new NodeSelector();
        ns.setNodeSelectorTerms(new ArrayList<>(List.of(term)));
        return ns;
      }
      if (sel != null && sel.getNodeSelectorTerms() != null) {
        List<NodeSelectorTerm> terms = sel.getNodeSelectorTerms();
        if (terms.size() == 1) {
          addNew(NodeMatcher.list(terms.get(0).getMatchFields()), fields);
          addNew(NodeMatcher.list(terms.get(0).getMatchExpressions()), exprs);
        } else if (terms.size() > 1) {
          throw new IllegalStateException(
              "unsupported ResourceSlice.NodeSelector with " + terms.size() + " terms");
        }
      }
    }
    if (fields.isEmpty() && exprs.isEmpty()) {
      return null;
    }
    NodeSelectorTerm term = new NodeSelectorTerm();
    term.setMatchExpressions(exprs.isEmpty() ? null : exprs);
    term.setMatchFields(fields.isEmpty() ? null : fields);
    NodeSelector ns = new NodeSelector();
    ns.setNodeSelectorTerms(new ArrayList<>(List.of(term)));
    return ns;
  }

  private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
    for (NodeSelectorRequirement r : from) {
      boolean present = false;
      for (NodeSelectorRequirement e : to) {
        if (e.getKey().equals(r.getKey())
            && e.getOperator().equals(r.getOperator())
            && new HashSet<>(NodeMatcher.list(e.getValues()))
                .equals(new HashSet<>(NodeMatcher.list(r.getValues())))) {
          present = true;
          break;
        }
      }
      if (!present) {
        to.add(r);
      }
    }
  }
}
