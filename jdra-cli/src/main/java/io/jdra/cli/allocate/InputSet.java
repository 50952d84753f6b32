package io.jdra.cli.allocate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;

/** The objects of {@code jdra allocate}'s input files, in input order per kind. */
public final class InputSet {
  final List<DeviceClass> classes = new ArrayList<>();
  final List<ResourceSlice> slices = new ArrayList<>();
  final List<DeviceTaintRule> taintRules = new ArrayList<>();
  final List<ResourceClaim> claims = new ArrayList<>();
  final List<Node> nodes = new ArrayList<>();

  /** Where each object came from, for messages ("file.yaml, document 3"). */
  final List<Source> sources = new ArrayList<>();

  /** An object and where it was read. */
  public record Source(String kind, String name, String where, Object object) {}

  public List<DeviceClass> classes() {
    return classes;
  }

  public List<ResourceSlice> slices() {
    return slices;
  }

  public List<DeviceTaintRule> taintRules() {
    return taintRules;
  }

  public List<ResourceClaim> claims() {
    return claims;
  }

  public List<Node> nodes() {
    return nodes;
  }

  public List<Source> sources() {
    return sources;
  }
}
