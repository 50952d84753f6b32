/**
 * The kubelet's plugin registration (upstream pkg/kubelet/pluginmanager): sockets in {@code
 * <root>/plugins_registry} are asked for their PluginInfo, handed to the handler of their type, and
 * told the outcome.
 */
package io.jdra.kubelet.pluginmanager;
