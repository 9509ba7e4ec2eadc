"""`mdsel-claude install|uninstall|doctor` (`cli`) and what they are made of. Imports nothing."""
