// loko documentation site: client-side search over names, descriptions and technology,
// a filter that narrows the sidebar tree (on the same index), the dark/light switch, and
// the phone menu. Works from file:// (the index is a script,
// not a fetch), needs no network.
(function () {
  'use strict'
  var root = window.LOKO_ROOT || ''
  var entries = window.LOKO_SEARCH || []
  var input = document.getElementById('search')
  var list = document.getElementById('search-results')

  // Each entry's lower-case text, made once: a keystroke only scans.
  function textOf(entry) {
    if (entry.text === undefined) {
      entry.text = (entry.title + ' ' + entry.description + ' ' + entry.technology + ' ' + entry.path).toLowerCase()
      entry.lowerTitle = entry.title.toLowerCase()
    }
    return entry.text
  }

  function matches(entry, terms) {
    var text = textOf(entry)
    return terms.every(function (t) { return text.indexOf(t) !== -1 })
  }

  function show(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean)
    list.innerHTML = ''
    if (!terms.length) { list.hidden = true; return }
    var found = entries.filter(function (e) { return matches(e, terms) })
    // Title matches first, in index order (a stable split, no sort of the whole list).
    var first = terms[0]
    var ranked = found.filter(function (e) { return e.lowerTitle.indexOf(first) !== -1 })
      .concat(found.filter(function (e) { return e.lowerTitle.indexOf(first) === -1 }))
    var fragment = document.createDocumentFragment()
    ranked.slice(0, 25).forEach(function (e) {
      var li = document.createElement('li')
      var a = document.createElement('a')
      a.href = root + e.url
      a.textContent = e.title
      var small = document.createElement('small')
      small.textContent = e.type + ' · ' + e.path + (e.technology ? ' · ' + e.technology : '')
      a.appendChild(small)
      li.appendChild(a)
      fragment.appendChild(li)
    })
    list.appendChild(fragment)
    if (!found.length) {
      var none = document.createElement('li')
      none.className = 'empty'
      none.textContent = 'No matches'
      list.appendChild(none)
    }
    list.hidden = false
  }

  if (input && list) {
    input.addEventListener('input', function () { show(input.value) })
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') {
        var first = list.querySelector('a')
        if (first) window.location.href = first.href
      } else if (event.key === 'Escape') {
        input.value = ''
        show('')
      }
    })
  }

  // The tree filter: a node stays when it or a descendant matches, and matching branches
  // open; an empty filter restores the tree as the page opened it.
  var filter = document.getElementById('tree-filter')
  var tree = document.querySelector('.tree')
  if (filter && tree) {
    var byUrl = {}
    entries.forEach(function (e) { byUrl[e.url] = e })
    var items = Array.prototype.slice.call(tree.querySelectorAll('li'))
    var details = Array.prototype.slice.call(tree.querySelectorAll('details'))
    var opened = details.map(function (d) { return d.open })
    var own = items.map(function (li) {
      var a = li.querySelector('a')
      var entry = a && byUrl[a.getAttribute('href').slice(root.length)]
      return entry || { title: a ? a.textContent : '', description: '', technology: '', path: '' }
    })
    filter.addEventListener('input', function () {
      var terms = filter.value.toLowerCase().split(/\s+/).filter(Boolean)
      if (!terms.length) {
        items.forEach(function (li) { li.hidden = false })
        details.forEach(function (d, i) { d.open = opened[i] })
        return
      }
      for (var i = items.length - 1; i >= 0; i--) {
        var li = items[i]
        var child = li.querySelector('ul > li:not([hidden])')
        var keep = matches(own[i], terms) || !!child
        li.hidden = !keep
        var d = li.firstElementChild
        if (d && d.tagName === 'DETAILS') d.open = !!child
      }
    })
  }

  var toggle = document.querySelector('.theme-toggle')
  if (toggle) {
    toggle.addEventListener('click', function () {
      var el = document.documentElement
      var dark = el.dataset.theme ? el.dataset.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches
      el.dataset.theme = dark ? 'light' : 'dark'
      try { localStorage.setItem('loko-theme', el.dataset.theme) } catch (e) { /* file:// without storage */ }
    })
  }

  var menu = document.querySelector('.menu')
  if (menu) {
    menu.addEventListener('click', function () {
      var open = document.body.classList.toggle('nav-open')
      menu.setAttribute('aria-expanded', String(open))
    })
  }
})()
