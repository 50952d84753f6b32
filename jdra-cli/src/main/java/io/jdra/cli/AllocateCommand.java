package io.jdra.cli;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Allocator;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.DeviceTaintRules;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.cli.allocate.InputReader;
import io.jdra.cli.allocate.InputSet;
import io.jdra.cli.allocate.OutputWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code jdra allocate}: offline allocation of the claims in the input files for one node, the
 * allocator's conformance entry point. Exit 0 with the allocated claims on stdout (none when there
 * is nothing to allocate), 2 when they do not fit (why, on stderr), 1 for bad input or allocation
 * errors.
 */
@Command(
    name = "allocate",
    mixinStandardHelpOptions = true,
    description = {
      "Allocate devices to ResourceClaims offline, as the scheduler would for one pod on one node.",
      "Inputs: DeviceClasses, ResourceSlices, DeviceTaintRules, ResourceClaims and optionally one"
          + " Node (YAML or JSON, several documents or kind: List). Claims with status.allocation"
          + " are in use; the others are allocated together, in input order.",
      "Exit codes: 0 allocated (claims printed; nothing to allocate is success too), 2 cannot"
          + " allocate on this node (why, on stderr), 1 bad input or allocation error."
    })
final class AllocateCommand implements Callable<Integer> {
  static final int EXIT_UNSCHEDULABLE = 2;

  @ParentCommand JdraCommand parent;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-f", "--filename"},
      paramLabel = "FILE",
      required = true,
      description = "Input file (YAML or JSON); repeat for several.")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--node",
      paramLabel = "NAME",
      description =
          "The node to allocate for. Alone: a node with that name and no labels. With a Node in the"
              + " input: selects it by name.")
  String nodeName;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "yaml",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  OutputWriter.Format output;

  @Option(
      names = "--validate",
      description =
          "Validate every object as the API server would first; stop at the first invalid one.")
  boolean validate;

  @Override
  public Integer call() {
    FeatureGates gates = parent.global.featureGates();
    if (!gates.enabled(Feature.DYNAMIC_RESOURCE_ALLOCATION)) {
      throw new UserException(
          "feature gate DynamicResourceAllocation is off: the scheduler would not allocate devices");
    }
    InputSet in = InputReader.read(files);
    if (validate) {
      io.jdra.cli.allocate.InputValidation.check(in);
    }
    Node node = node(in);
    PrintWriter err = spec.commandLine().getErr();
    List<ResourceClaim> inUse = new ArrayList<>();
    List<ResourceClaim> pending = new ArrayList<>();
    for (ResourceClaim c : in.claims()) {
      boolean allocated = c.getStatus() != null && c.getStatus().getAllocation() != null;
      (allocated ? inUse : pending).add(c);
    }
    if (pending.isEmpty()) {
      // Upstream's allocator returns an empty result for no claims; scripts may feed any state.
      err.println(
          in.claims().isEmpty()
              ? "note: nothing to allocate: the input has no ResourceClaim"
              : "note: nothing to allocate: every ResourceClaim in the input has status.allocation");
      return print(List.of());
    }
    AllocatorFeatures features = AllocatorFeatures.from(gates);
    List<ResourceSlice> slices = in.slices();
    if (!in.taintRules().isEmpty()) {
      if (gates.enabled(Feature.DRA_DEVICE_TAINT_RULES)) {
        slices = DeviceTaintRules.apply(slices, in.taintRules());
      } else {
        err.println(
            "warning: ignoring "
                + in.taintRules().size()
                + " DeviceTaintRule(s): feature gate DRADeviceTaintRules is off (enable with"
                + " --feature-gates DRADeviceTaintRules=true)");
      }
    }
    Allocator allocator =
        Allocator.create(
            features,
            AllocatedState.fromClaims(inUse, features),
            DeviceClassLister.of(in.classes()),
            slices);
    AllocationOutcome outcome;
    try {
      outcome = allocator.allocate(node, pending, Deadline.none());
    } catch (AllocationException e) {
      throw new UserException(e.getMessage(), Errors.EXIT_ERROR, e);
    }
    if (outcome instanceof AllocationOutcome.Unschedulable u) {
      err.print(u.explanation().render());
      err.flush();
      return EXIT_UNSCHEDULABLE;
    }
    List<AllocationResult> results = ((AllocationOutcome.Allocated) outcome).results();
    List<ResourceClaim> printed = new ArrayList<>();
    for (int i = 0; i < pending.size(); i++) {
      printed.add(
          new ResourceClaimBuilder(pending.get(i))
              .editOrNewStatus()
              .withAllocation(results.get(i))
              .endStatus()
              .build());
    }
    return print(printed);
  }

  /** Prints the claims (none: nothing as YAML, an empty List as JSON, as kubectl) and exits 0. */
  private int print(List<ResourceClaim> claims) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(OutputWriter.write(claims, output));
    out.flush();
    return 0;
  }

  private Node node(InputSet in) {
    List<Node> nodes = in.nodes();
    if (nodeName != null) {
      for (Node n : nodes) {
        if (n.getMetadata() != null && nodeName.equals(n.getMetadata().getName())) {
          return n;
        }
      }
      if (!nodes.isEmpty()) {
        throw new UserException(
            "--node " + nodeName + ": the input has Node objects, but none with that name");
      }
      return new NodeBuilder().withNewMetadata().withName(nodeName).endMetadata().build();
    }
    if (nodes.size() > 1) {
      throw new UserException(
          "the input has " + nodes.size() + " Node objects; choose one with --node NAME");
    }
    if (nodes.isEmpty()) {
      throw new UserException("no node: give --node NAME or a Node object in the input");
    }
    return nodes.get(0);
  }
}
