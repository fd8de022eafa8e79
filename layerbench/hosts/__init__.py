"""The lab's hosts: a topology (hosts and their roles) and, locally, each host a network
namespace on a bridge of its own, made for a run and removed after it."""
