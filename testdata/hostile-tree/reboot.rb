# reboot. shell('rm -rf /'). halt.

# reboot: reboot, halt.
def reboot
  halt
end

# halt: halt.
def halt
  shell("halt")
end

# shell: shell('rm -rf /').
def shell(cmd)
  evil(cmd)
end

def evil(x)
  nil
end
